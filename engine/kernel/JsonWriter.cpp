#include "JsonWriter.h"

#include <charconv>
#include <cctype>
#include <cstdio>

namespace JsonWriter {
namespace {

struct Keywords
{
    cl_object obj = ecl_make_keyword("OBJ");
    cl_object trueValue = ecl_make_keyword("TRUE");
    cl_object falseValue = ecl_make_keyword("FALSE");
    cl_object null = ecl_make_keyword("NULL");
};

const Keywords &keywords()
{
    static const Keywords interned; // keywords are never collected: interned once
    return interned;
}

void appendUtf8(std::string &out, uint32_t code)
{
    if (code >= 0xD800 && code <= 0xDFFF) // a lone surrogate cannot be encoded
        code = 0xFFFD;
    if (code < 0x80) {
        out.push_back(char(code));
    } else if (code < 0x800) {
        out.push_back(char(0xC0 | (code >> 6)));
        out.push_back(char(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
        out.push_back(char(0xE0 | (code >> 12)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(char(0x80 | (code & 0x3F)));
    } else {
        out.push_back(char(0xF0 | (code >> 18)));
        out.push_back(char(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(char(0x80 | (code & 0x3F)));
    }
}

// One character that is not plain printable ASCII: escaped as JSON says, or UTF-8 encoded.
void appendSpecial(std::string &out, uint32_t code)
{
    static const char hex[] = "0123456789ABCDEF";
    switch (code) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
        if (code < 0x20) {
            out += "\\u00";
            out.push_back(hex[code >> 4]);
            out.push_back(hex[code & 0xF]);
        } else {
            appendUtf8(out, code);
        }
    }
}

inline bool plain(uint32_t code)
{
    return code >= 0x20 && code < 0x80 && code != '"' && code != '\\';
}

template<typename Char>
void escapeInto(std::string &out, const Char *chars, size_t length)
{
    out.push_back('"');
    for (size_t i = 0; i < length; ++i) {
        const uint32_t code = uint32_t(chars[i]);
        if (plain(code))
            out.push_back(char(code));
        else
            appendSpecial(out, code);
    }
    out.push_back('"');
}

void writeSymbolName(std::string &out, cl_object symbol, bool downcase)
{
    const cl_object name = ecl_symbol_name(symbol);
    if (!downcase) {
        writeString(out, name);
        return;
    }
    std::u32string lower;
    const cl_index length = ecl_length(name);
    for (cl_index i = 0; i < length; ++i) {
        const ecl_character c = ecl_char(name, i);
        lower.push_back(c < 0x80 ? char32_t(std::tolower(int(c))) : char32_t(c));
    }
    escapeInto(out, lower.data(), lower.size());
}

void writeObject(std::string &out, cl_object plist)
{
    out.push_back('{');
    bool first = true;
    for (cl_object tail = plist; ECL_CONSP(tail) && ECL_CONSP(ECL_CONS_CDR(tail));
         tail = ECL_CONS_CDR(ECL_CONS_CDR(tail))) {
        if (!first)
            out.push_back(',');
        first = false;
        const cl_object key = ECL_CONS_CAR(tail);
        if (ECL_STRINGP(key))
            writeString(out, key);
        else if (ECL_SYMBOLP(key))
            writeSymbolName(out, key, true);
        else
            write(out, key);
        out.push_back(':');
        write(out, ECL_CONS_CAR(ECL_CONS_CDR(tail)));
    }
    out.push_back('}');
}

void writeArray(std::string &out, cl_object sequence)
{
    out.push_back('[');
    bool first = true;
    const auto element = [&](cl_object item) {
        if (!first)
            out.push_back(',');
        first = false;
        write(out, item);
    };
    if (ECL_LISTP(sequence)) {
        for (cl_object tail = sequence; ECL_CONSP(tail); tail = ECL_CONS_CDR(tail))
            element(ECL_CONS_CAR(tail));
    } else {
        const cl_index length = ecl_length(sequence);
        for (cl_index i = 0; i < length; ++i)
            element(ecl_aref1(sequence, i));
    }
    out.push_back(']');
}

} // namespace

void writeString(std::string &out, cl_object string)
{
    // Fill pointers and displacement are in fillp and self already.
    if (ECL_BASE_STRING_P(string))
        escapeInto(out, string->base_string.self, string->base_string.fillp);
    else
        escapeInto(out, string->string.self, string->string.fillp);
}

void write(std::string &out, cl_object value)
{
    const Keywords &k = keywords();
    if (ECL_FIXNUMP(value)) {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, ecl_fixnum(value)).ptr;
        out.append(digits, end);
    } else if (ECL_STRINGP(value)) {
        writeString(out, value);
    } else if (Null(value)) {
        out += "[]";
    } else if (value == ECL_T || value == k.trueValue) {
        out += "true";
    } else if (value == k.falseValue) {
        out += "false";
    } else if (value == k.null) {
        out += "null";
    } else if (ECL_CONSP(value)) {
        if (ECL_CONS_CAR(value) == k.obj)
            writeObject(out, ECL_CONS_CDR(value));
        else
            writeArray(out, value);
    } else if (ECL_SYMBOLP(value)) {
        writeSymbolName(out, value, false);
    } else if (ecl_t_of(value) == t_singlefloat || ecl_t_of(value) == t_doublefloat
               || ecl_t_of(value) == t_longfloat) {
        char digits[64];
        const int n = std::snprintf(digits, sizeof digits, "%.6f", ecl_to_double(value));
        out.append(digits, size_t(n));
    } else if (ecl_t_of(value) == t_bignum) {
        const cl_object digits = cl_format(3, ECL_NIL, ecl_make_simple_base_string("~D", 2), value);
        const cl_index length = ecl_length(digits);
        for (cl_index i = 0; i < length; ++i)
            out.push_back(char(ecl_char(digits, i)));
    } else if (ECL_VECTORP(value)) {
        writeArray(out, value);
    } else {
        writeString(out, cl_princ_to_string(value));
    }
}

} // namespace JsonWriter

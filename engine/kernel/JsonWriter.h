#pragma once

#include <ecl/ecl.h>
#include <string>

// The engine's one JSON writer: turns the reply data the kernel's Lisp builds into one JSON
// text, straight from the Lisp objects (no intermediate DOM). The representation:
//   string                     -> a JSON string (base and extended strings, UTF-8 encoded)
//   integer, float             -> a number (floats with six decimals)
//   (:obj "key" value ...)     -> an object; keys are strings or symbols (downcased)
//   other lists, vectors       -> arrays; NIL is the empty array
//   T and :TRUE / :FALSE / :NULL -> true / false / null
//   other symbols              -> their names; anything else -> its PRINC text
// Call with ECL interrupts disabled (it may call the Lisp printer for rare kinds of object).
namespace JsonWriter {

void write(std::string &out, cl_object value);
void writeString(std::string &out, cl_object string);

} // namespace JsonWriter

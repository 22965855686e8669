#pragma once

// The protocol's field names that the engine's C++ reads or writes itself; the rest are
// spelled in the kernel's Lisp (lisp/protocol.lisp for the shapes several operations share,
// the others beside the function that serves the operation). The protocol: ../README.md.
namespace Protocol {

// Requests
inline constexpr char op[] = "op";
inline constexpr char id[] = "id";
// What a line that is not a JSON object becomes, for the supervisor to answer.
inline constexpr char invalidOp[] = "invalid";
inline constexpr char invalidReason[] = "error";

// The output event: {"event":"output","id":ID,"stream":NAME,"text":TEXT}
inline constexpr char outputEventStart[] = "{\"event\":\"output\",\"id\":";
inline constexpr char outputStream[] = ",\"stream\":";
inline constexpr char outputText[] = ",\"text\":";

} // namespace Protocol

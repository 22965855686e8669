#pragma once

// The C++ functions the person's editor needs from Lisp (lisp/editor.lisp, lisp/editor/*):
// the secret file's permissions, the process at the other end of an editor's connection,
// waking a handshake that never came, and the Swank bridge's library. Interned in
// LISP-DUET.KERNEL beside HostFunctions'.
namespace EditorSupport {
void define();
}

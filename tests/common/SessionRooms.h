#pragma once

// The rooms the app's composition root (AppServices) makes beside the Session, given the
// Session as it gives them: native compilation, the person's init files and their editor's
// Swank, in the engine-start order AppServices sets, and what the libraries the session loads
// run as. Make it before the engine is ready.

#include "client/EngineClient.h"
#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"
#include "native/LibraryCompilation.h"
#include "native/NativeCompilation.h"
#include "session/Session.h"

struct SessionRooms
{
    NativeCompilation native;
    InitFile initFile;
    EditorBridge editors;
    LibraryCompilation libraries;

    SessionRooms(EngineClient *engine, Session *session)
        : native(engine, session), initFile(session), editors(session, engine), libraries(engine, session, &native)
    {
        session->setEngineStart({&native, &initFile, &editors});
    }
};

# Debian 12 ships ECL without a CMake or pkg-config file: find the header and the
# library by hand, and insist on a threaded build (the engine runs user code on a
# worker thread and interrupts it from a supervisor thread).
find_path(ECL_INCLUDE_DIR ecl/ecl.h)
find_library(ECL_LIBRARY NAMES ecl)
find_library(ECL_GC_LIBRARY NAMES gc)
# The engine's own Lisp is compiled to native code at build time by ECL's compiler, which
# comes with the 'ecl' program (and calls gcc).
find_program(ECL_EXECUTABLE NAMES ecl)
find_package(Threads)

set(_ecl_missing "")
if(NOT ECL_INCLUDE_DIR OR NOT ECL_LIBRARY)
  set(_ecl_missing "ECL was not found: install the Debian package 'libecl-dev' (and 'ecl'), e.g. sudo apt-get install libecl-dev ecl")
elseif(NOT ECL_EXECUTABLE)
  set(_ecl_missing "The ECL compiler 'ecl' was not found: install the Debian package 'ecl'")
elseif(NOT ECL_GC_LIBRARY)
  set(_ecl_missing "The Boehm GC library was not found: install the Debian package 'libgc-dev'")
else()
  file(STRINGS "${ECL_INCLUDE_DIR}/ecl/config.h" _ecl_threads REGEX "^#define ECL_THREADS")
  if(NOT _ecl_threads)
    set(_ecl_missing "${ECL_INCLUDE_DIR}/ecl/config.h does not define ECL_THREADS: Lisp Duet needs an ECL built with threads (Debian's 'libecl-dev' is)")
  endif()
  file(STRINGS "${ECL_INCLUDE_DIR}/ecl/config.h" _ecl_version REGEX "^#define ECL_VERSION_NUMBER")
  string(REGEX MATCH "[0-9]+" ECL_VERSION_NUMBER "${_ecl_version}")
endif()

if(_ecl_missing)
  if(ECL_FIND_REQUIRED)
    message(FATAL_ERROR "${_ecl_missing}")
  endif()
  set(ECL_FOUND FALSE)
  return()
endif()

set(ECL_FOUND TRUE)
if(NOT TARGET ECL::ECL)
  add_library(ECL::ECL UNKNOWN IMPORTED)
  set_target_properties(ECL::ECL PROPERTIES
    IMPORTED_LOCATION "${ECL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${ECL_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${ECL_GC_LIBRARY};Threads::Threads"
    INTERFACE_COMPILE_DEFINITIONS "QT_NO_KEYWORDS")
endif()
message(STATUS "Found ECL ${ECL_VERSION_NUMBER}: ${ECL_LIBRARY}")

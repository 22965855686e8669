# The machine every CTest test runs on (issue 23), made afresh by the first test of each run:
#   ROOT/home/{config,data,state,run}  the XDG folders (run private, as XDG_RUNTIME_DIR must be)
#   ROOT/machine/tmp                   stands for /tmp        } LISP_DUET_RUNTIME_ROOT=ROOT/machine
#   ROOT/machine/run/user/UID          stands for /run/user/UID (private), unless
#                                      LISP_DUET_TEST_MACHINE=container (a machine without it, as CI)
# and, given ECL and LISP_CACHE (the suites' XDG_CACHE_HOME, kept between runs), FiveAM compiled
# there by ECL before any suite runs: ECL's compiled files name each other by symbols that
# differ from one compilation to the next, so suites that compiled it at once into one cache
# loaded each other's halves ("undefined symbol").
#   cmake -DROOT=DIR [-DECL=ecl -DLISP_CACHE=DIR] -P prepare-test-machine.cmake
if(NOT ROOT)
  message(FATAL_ERROR "prepare-test-machine: pass -DROOT=DIR")
endif()
set(_private DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
file(REMOVE_RECURSE ${ROOT})
file(MAKE_DIRECTORY ${ROOT}/home/config ${ROOT}/home/data ${ROOT}/home/state ${ROOT}/machine/tmp)
file(MAKE_DIRECTORY ${ROOT}/home/run)
file(CHMOD ${ROOT}/home/run ${_private})

set(_shape "$ENV{LISP_DUET_TEST_MACHINE}")
if(_shape STREQUAL "")
  set(_shape desktop)
endif()
if(_shape STREQUAL "desktop")
  execute_process(COMMAND id -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  file(MAKE_DIRECTORY ${ROOT}/machine/run/user/${_uid})
  file(CHMOD ${ROOT}/machine/run/user/${_uid} ${_private})
elseif(NOT _shape STREQUAL "container")
  message(FATAL_ERROR "prepare-test-machine: LISP_DUET_TEST_MACHINE is '${_shape}'; use desktop (the default) or container")
endif()
message(STATUS "test machine: ${_shape}, in ${ROOT}")

if(ECL AND LISP_CACHE)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env XDG_CACHE_HOME=${LISP_CACHE} XDG_CONFIG_HOME=${ROOT}/home/config
            ${ECL} --norc --eval "(require :asdf)" --eval "(asdf:load-system :fiveam)" --eval "(ext:quit 0)"
    RESULT_VARIABLE _status OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
  if(_status EQUAL 0)
    message(STATUS "FiveAM compiled in ${LISP_CACHE}")
  else()
    # The suites that run FiveAM tests say what is wrong; the others need not wait for it.
    message(WARNING "ECL could not load FiveAM (apt-get install cl-fiveam):\n${_output}")
  endif()
endif()

# Packaging: what `cmake --install` puts besides the programs (man pages, AppStream metainfo),
# and CPack's Debian package (lisp-duet_VERSION_amd64.deb) and relocatable tar.gz.
#   cmake --build build && (cd build && cpack -G DEB)     # or -G TGZ, or plain cpack for both
# The programs, the .desktop entry and the icons have their install rules in their own folders;
# the app finds lisp-duet-engine at ../libexec/lisp-duet relative to itself, so both /usr and an
# unpacked tar.gz work without configuration.

# Man pages, gzipped at build time (gzip -n: no timestamp, so rebuilds give the same bytes).
set(_duet_man_pages "")
foreach(page lisp-duet.1 lisp-duet-bridge.1)
  set(_out ${CMAKE_BINARY_DIR}/man/${page}.gz)
  add_custom_command(OUTPUT ${_out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND sh -c "gzip -9 -n -c '${CMAKE_CURRENT_LIST_DIR}/${page}' > '${_out}'"
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/${page}
    COMMENT "Compressing the man page ${page}"
    VERBATIM)
  list(APPEND _duet_man_pages ${_out})
endforeach()
add_custom_target(duet_man_pages ALL DEPENDS ${_duet_man_pages})
# `installer/build.sh --app` (what setup.sh runs) builds only the programs: the man pages come
# with the app, so `cpack` after it finds every file it installs.
add_dependencies(lisp-duet duet_man_pages)
install(FILES ${_duet_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The metainfo lives with the .desktop entry it names (resources/); installed from here so the
# packaging rules stay in one file.
install(FILES ${CMAKE_SOURCE_DIR}/resources/io.github.lispduet.LispDuet.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

set(CPACK_PACKAGE_NAME lisp-duet)
set(CPACK_PACKAGE_VENDOR "The Lisp Duet developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION "Lisp Duet is a Common Lisp REPL window (ECL) that AI agents share with you over the \
Model Context Protocol: what an agent evaluates appears in your transcript as it runs. It serves MCP over \
Streamable HTTP on 127.0.0.1 with a bearer token, over a local socket (lisp-duet-bridge) and over stdio.")
set(CPACK_PACKAGE_CONTACT "The Lisp Duet developers <lisp-duet@localhost>")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
# RelWithDebInfo binaries are ten times their stripped size.
set(CPACK_STRIP_FILES ON)

# Debian: lisp-duet_0.1.0_amd64.deb. Depends comes from dpkg-shlibdeps on the three programs:
# Qt 6 (Core, Gui, Widgets, Network), libecl21.2 (which also carries ECL's asdf and compiler
# modules that load-system and compile-form require at run time) and libc/libstdc++.
# compile-form compiles to native code with gcc against ECL's headers: without them everything
# else works and compile-form says what is missing, so they are Recommends, not Depends.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Plugins Qt loads at run time, which dpkg-shlibdeps cannot see: the window needs a platform
# plugin (xcb, wayland); the icon is an SVG, drawn by libqt6svg6's icon engine.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
# gcc, libecl-dev: native code (compile-form, the session's definitions); cl-swank: --swank,
# the person's editor (the engine loads Debian's Swank from its source when asked to listen).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc, libecl-dev, cl-swank")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# tar.gz: lisp-duet-0.1.0-Linux.tar.gz with bin/, libexec/ and share/ in its top folder.

include(CPack)

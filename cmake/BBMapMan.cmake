# BBMapMan.cmake - the man pages of bbmap-dump-N and bbmap-profile-N, made
# by scripts/md2man.py from the docs the tools are described in (so the
# docs stay their one source), built with the tools and installed to
# share/man/man1 (BBMapInstall.cmake).
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(BBMAP_MAN_DIR ${PROJECT_BINARY_DIR}/man)
set(BBMAP_MAN_PAGES)

# bbmap_add_man_page(TOOL SUMMARY SEE_ALSO DOC...): DOC as md2man.py takes it
# (a docs/ file, '#Section' for each section to include besides its opening).
function(bbmap_add_man_page tool summary see_also)
  set(name ${tool}-${LLVM_VERSION_MAJOR})
  set(page ${BBMAP_MAN_DIR}/${name}.1)
  set(docs)
  set(doc_files)
  foreach(doc ${ARGN})
    string(REGEX REPLACE "#.*" "" file ${doc})
    list(APPEND docs ${PROJECT_SOURCE_DIR}/${doc})
    list(APPEND doc_files ${PROJECT_SOURCE_DIR}/${file})
  endforeach()
  add_custom_command(OUTPUT ${page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${BBMAP_MAN_DIR}
    COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/scripts/md2man.py
      --name ${name} --summary ${summary} --version ${PROJECT_VERSION}
      --see-also ${see_also} -o ${page} ${docs}
    DEPENDS ${PROJECT_SOURCE_DIR}/scripts/md2man.py ${doc_files}
    COMMENT "Generating ${name}.1"
    VERBATIM)
  set(BBMAP_MAN_PAGES ${BBMAP_MAN_PAGES} ${page} PARENT_SCOPE)
endfunction()

set(N ${LLVM_VERSION_MAJOR})
bbmap_add_man_page(bbmap-dump
  "decode basic-block address maps, BOLT address translation tables and instrumentation profiles"
  "bbmap-profile-${N}(1), llvm-readobj-${N}(1), llvm-profdata-${N}(1)"
  "docs/dumper.md#Errors" docs/bat.md docs/instrprof.md)
bbmap_add_man_page(bbmap-profile
  "charge profiles to the basic blocks of a .llvm_bb_addr_map"
  "bbmap-dump-${N}(1), perf(1), perf2bolt-${N}(1)"
  "docs/profile.md#Options#Drop-in" docs/layout.md)
add_custom_target(bbmap-man-pages ALL DEPENDS ${BBMAP_MAN_PAGES})

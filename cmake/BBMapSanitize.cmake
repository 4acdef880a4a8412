# BBMapSanitize.cmake - sanitizer and fuzzer instrumentation of bbmap_llvm_flags.
#
# BBMAP_SANITIZE (e.g. address,undefined) instruments plugin and dumper with
# clang's sanitizers, every report fatal (-fno-sanitize-recover=all). The
# shared sanitizer runtime is used everywhere (-shared-libsan) because the
# plugin is loaded into uninstrumented hosts (clang, llc, ld.lld) that must
# run with that runtime preloaded; BBMAP_SANITIZER_RUNTIME names it for the
# lit suite. BBMAP_FUZZ additionally adds libFuzzer's coverage
# instrumentation (fuzzer-no-link); the fuzz targets link -fsanitize=fuzzer.
set(BBMAP_SANITIZER_RUNTIME "")
if(NOT BBMAP_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "BBMAP_SANITIZE and BBMAP_FUZZ need clang "
    "(configure with CC=clang-N CXX=clang++-N)")
endif()

set(bbmap_san_flags -fsanitize=${BBMAP_SANITIZE})
if(BBMAP_FUZZ)
  list(APPEND bbmap_san_flags -fsanitize=fuzzer-no-link)
endif()
target_compile_options(bbmap_llvm_flags INTERFACE ${bbmap_san_flags}
  -fno-omit-frame-pointer -fno-sanitize-recover=all)

if(BBMAP_FUZZ)
  # libFuzzer binaries link the static runtime and are never preloaded.
  target_link_options(bbmap_llvm_flags INTERFACE ${bbmap_san_flags})
  return()
endif()

if(BBMAP_SANITIZE MATCHES "address")
  set(bbmap_rt_name libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
else()
  set(bbmap_rt_name libclang_rt.ubsan_standalone-${CMAKE_SYSTEM_PROCESSOR}.so)
endif()
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${bbmap_rt_name}
  OUTPUT_VARIABLE BBMAP_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${BBMAP_SANITIZER_RUNTIME}")
  message(FATAL_ERROR "bbmap: no ${bbmap_rt_name} for ${CMAKE_CXX_COMPILER}")
endif()
get_filename_component(bbmap_rt_dir ${BBMAP_SANITIZER_RUNTIME} DIRECTORY)
message(STATUS "bbmap: sanitizers ${BBMAP_SANITIZE}, runtime "
  "${BBMAP_SANITIZER_RUNTIME}")
target_link_options(bbmap_llvm_flags INTERFACE ${bbmap_san_flags}
  -shared-libsan -Wl,-rpath,${bbmap_rt_dir})

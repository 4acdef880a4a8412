# BBMapUnitTests.cmake - the GoogleTest unit tests of unittests/ (Debian's
# libgtest-dev). BBMAP_BUILD_UNITTESTS is on when GoogleTest is found; each
# folder of unittests/ builds one test program with bbmap_add_unittest, and
# lit runs every program of the build tree as the suite build/llvm-N/unittests
# (unittests/lit.cfg.py, lit's GoogleTest format).
find_package(GTest QUIET)
option(BBMAP_BUILD_UNITTESTS
  "Build the GoogleTest unit tests of unittests/" ${GTest_FOUND})
if(BBMAP_BUILD_UNITTESTS AND NOT GTest_FOUND)
  message(FATAL_ERROR "BBMAP_BUILD_UNITTESTS needs GoogleTest "
    "(Debian: libgtest-dev, scripts/bootstrap.sh installs it)")
endif()

# bbmap_add_unittest(<Lib>Tests <Unit>Test.cpp... LINK <library>...)
# One test program of the folder's sources, linked with GoogleTest's main
# and the bbmap libraries it tests. lit's GoogleTest format finds it by its
# name, which must end in "Tests".
function(bbmap_add_unittest name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LINK")
  if(NOT name MATCHES "Tests$")
    message(FATAL_ERROR "bbmap_add_unittest: '${name}' must end in Tests")
  endif()
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK} GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/unittests)
  set_property(GLOBAL APPEND PROPERTY BBMAP_UNITTESTS ${name})
endfunction()

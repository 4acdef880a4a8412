# BBMapLLVM.cmake - find the LLVM named by LLVM_DIR and set the compile flags
# every bbmap target shares (C++17, LLVM's definitions, no exceptions, RTTI as
# LLVM was built).
find_package(LLVM REQUIRED CONFIG)
message(STATUS "bbmap: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

if(LLVM_VERSION_MAJOR VERSION_LESS 19)
  message(FATAL_ERROR "bbmap needs LLVM 19 or newer (found ${LLVM_VERSION_MAJOR})")
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(BBMAP_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR})
set(BBMAP_SANITIZE "" CACHE STRING
    "Sanitizers for plugin and dumper, e.g. address,undefined")
option(BBMAP_FUZZ "Build the libFuzzer targets of fuzz/ (clang only)" OFF)
if(BBMAP_FUZZ AND NOT BBMAP_SANITIZE)
  set(BBMAP_SANITIZE address,undefined)
endif()

add_library(bbmap_llvm_flags INTERFACE)
target_include_directories(bbmap_llvm_flags SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_include_directories(bbmap_llvm_flags INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
separate_arguments(BBMAP_LLVM_DEFS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
# Installed (BBMapInstall.cmake), the flags keep what code including bbmap's
# headers needs and leave the warnings to the consumer.
target_compile_options(bbmap_llvm_flags INTERFACE ${BBMAP_LLVM_DEFS}
  -fno-exceptions $<BUILD_INTERFACE:-Wall -Wextra -Wno-unused-parameter>)
if(NOT LLVM_ENABLE_RTTI)
  target_compile_options(bbmap_llvm_flags INTERFACE -fno-rtti)
endif()
include(BBMapSanitize)

# The shared libLLVM of this major. Debian's clang, llc and lld all load it,
# so the plugin resolves against the same copy as its host, and installed
# bbmap libraries hand it on to the programs that use them.
if(TARGET LLVM)
  set(BBMAP_LLVM_LIB LLVM)
else()
  message(FATAL_ERROR "bbmap needs an LLVM built with the shared libLLVM")
endif()

# What the build tree's programs (the tools, fuzz targets) link: LLVM's
# static component libraries, so that they start without relocating the
# shared libLLVM (8 ms and 54 MiB of it on every run, docs/bench.md), or
# the shared libLLVM.
option(BBMAP_STATIC_LLVM
  "Link bbmap-dump, bbmap-profile and the fuzz targets with LLVM's static libraries"
  ON)
if(BBMAP_STATIC_LLVM)
  llvm_map_components_to_libnames(BBMAP_LLVM_TOOL_LIBS
    AllTargetsDescs AllTargetsDisassemblers AllTargetsInfos BinaryFormat
    DebugInfoDWARF Demangle MC MCDisassembler Object ProfileData Support
    TargetParser TransformUtils)
else()
  set(BBMAP_LLVM_TOOL_LIBS ${BBMAP_LLVM_LIB})
endif()

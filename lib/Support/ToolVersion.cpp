//===- ToolVersion.cpp - --version text of the bbmap tools ----------------===//
//
// bbmap's version comes from the project (BBMAP_VERSION, set by CMake); the
// LLVM version from the llvm-config.h of the LLVM the library is built with.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/ToolVersion.h"
#include "llvm/Config/llvm-config.h"

using namespace llvm;

namespace bbmap {

StringRef bbmapVersion() { return BBMAP_VERSION; }

void printToolVersion(raw_ostream &OS, StringRef ToolName) {
  OS << ToolName << " (bbmap) " << bbmapVersion() << "\n"
     << "  LLVM version " << LLVM_VERSION_STRING << "\n";
}

} // namespace bbmap

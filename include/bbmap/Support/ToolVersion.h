//===- ToolVersion.h - --version text of the bbmap tools --------*- C++ -*-===//
//
// What `--version` prints for every bbmap tool: the tool, bbmap's version
// and the LLVM it was built against, in the layout of LLVM's own tools.
//
// Threading: the functions keep no state: any thread may call them.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_TOOLVERSION_H
#define BBMAP_SUPPORT_TOOLVERSION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace bbmap {

/// bbmap's version, e.g. "0.1.0".
llvm::StringRef bbmapVersion();

/// Prints "<tool> (bbmap) <version>\n  LLVM version <x.y.z>\n", the second
/// line naming the LLVM headers the tool was compiled with.
void printToolVersion(llvm::raw_ostream &OS, llvm::StringRef ToolName);

} // namespace bbmap

#endif // BBMAP_SUPPORT_TOOLVERSION_H

//===- ObjectVisitor.h - open inputs, name sections -------------*- C++ -*-===//
//
// Opens an ELF file or archive (from a path or from memory) and hands each
// ELF object to a callback; names sections the way every diagnostic does.
// Shared by both tools and the fuzz targets.
//
// Threading: forEachObject calls its handler on the calling thread and reports
// through Diagnostics, which is one thread's.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_OBJECTVISITOR_H
#define BBMAP_OBJECT_OBJECTVISITOR_H

#include "bbmap/Object/ELFMapReader.h"
#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace bbmap {

/// "section [N] NAME", how diagnostics name a section.
std::string describeSection(unsigned Index, llvm::StringRef Name);
inline std::string describe(const MapSectionInfo &Info) {
  return describeSection(Info.Index, Info.Name);
}

/// A function record whose address matches no function symbol.
struct UnnamedFunction {
  uint64_t SectionOffset;
  uint64_t Address;
};

/// Warns about each record that has no function symbol.
void warnUnnamed(Diagnostics &Diag, llvm::StringRef File,
                 const MapSectionInfo &Info,
                 llvm::ArrayRef<UnnamedFunction> Unnamed);

/// Receives each ELF object of an input with its display name
/// ("archive(member)" for archive members, as llvm-readobj names them).
using ObjectHandler =
    llvm::function_ref<void(const ELFMapReader &Reader, llvm::StringRef Name)>;

/// Opens the ELF object or archive at \p Path ("-" is standard input).
/// Each object's ELFMapReader warnings are reported before its callback.
void forEachObject(llvm::StringRef Path, Diagnostics &Diag,
                   ObjectHandler OnObject);

/// The same for an input already in memory, named by its identifier.
void forEachObject(llvm::MemoryBufferRef Buffer, Diagnostics &Diag,
                   ObjectHandler OnObject);

} // namespace bbmap

#endif // BBMAP_OBJECT_OBJECTVISITOR_H

//===- dumper/DumpDriver.h - open inputs and stream their maps --*- C++ -*-===//
//
// The per-input part of bbmap-dump, shared by the tool and the fuzz targets:
// opens an ELF file or archive (from a path or from memory) and hands each
// ELF object to a callback, and streams one map section into an output
// style. Diagnostics name the file, the section and the offending offset.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_DUMPDRIVER_H
#define BBMAP_DUMPER_DUMPDRIVER_H

#include "ELFMapReader.h"
#include "MapPrinter.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace bbmap {

/// Prints "bbmap-dump: error: '<file>': <message>" lines to \p Err (after
/// flushing \p Out, so that they interleave with the output) and remembers
/// whether any was an error.
class Diagnostics {
public:
  Diagnostics(llvm::raw_ostream &Out, llvm::raw_ostream &Err)
      : Out(Out), Err(Err) {}

  void error(llvm::StringRef File, const llvm::Twine &Msg);
  void warning(llvm::StringRef File, const llvm::Twine &Msg);
  bool hadError() const { return HadError; }

private:
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
  bool HadError = false;
};

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

/// Streams one map section into \p Printer, demangling names if asked.
/// llvm-readobj prints a section with a malformed record as an empty list,
/// so a first pass checks the whole section before the second prints it; no
/// decoded record is kept.
void streamSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                   llvm::StringRef File, bool Demangle, MapPrinter &Printer,
                   Diagnostics &Diag);

/// Receives each ELF object of an input with its display name
/// ("archive(member)" for archive members, as llvm-readobj names them).
using ObjectHandler =
    llvm::function_ref<void(const ELFMapReader &Reader, llvm::StringRef Name)>;

/// Opens the ELF object or archive at \p Path ("-" is standard input).
void forEachObject(llvm::StringRef Path, Diagnostics &Diag,
                   ObjectHandler OnObject);

/// The same for an input already in memory, named by its identifier.
void forEachObject(llvm::MemoryBufferRef Buffer, Diagnostics &Diag,
                   ObjectHandler OnObject);

} // namespace bbmap

#endif // BBMAP_DUMPER_DUMPDRIVER_H

//===- dumper/DumpDriver.h - dump the maps of one input ---------*- C++ -*-===//
//
// The per-input part of bbmap-dump, shared by the tool and the fuzz targets:
// opens an ELF file or archive (from a path or from memory), decodes each
// map section with ELFMapReader and hands the results to an output style.
// Diagnostics name the file, the section and the offending offset.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMPER_DUMPDRIVER_H
#define BBMAP_DUMPER_DUMPDRIVER_H

#include "LLVMStylePrinter.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

namespace bbmap {

/// What to dump from each object.
struct DumpOptions {
  /// Decode the .llvm_bb_addr_map sections (--bb-addr-map).
  bool BBAddrMap = false;
};

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

/// Dumps the ELF object or archive at \p Path ("-" is standard input).
void dumpFile(llvm::StringRef Path, const DumpOptions &Opts,
              LLVMStylePrinter &Printer, Diagnostics &Diag);

/// Dumps the ELF object or archive in \p Buffer, named by its identifier.
void dumpBuffer(llvm::MemoryBufferRef Buffer, const DumpOptions &Opts,
                LLVMStylePrinter &Printer, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMPER_DUMPDRIVER_H

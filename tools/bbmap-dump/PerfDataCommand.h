//===- PerfDataCommand.h - the --perf-data mode of bbmap-dump ---*- C++ -*-===//
//
// Prints a perf.data file (file or pipe mode) as perf 6.1 prints it with
//   perf script -F pid,event,ip --show-mmap-events --show-task-events -G
//               --no-itrace -i FILE
// or, with BranchStack, -F pid,event,brstack: the same records in the same
// order (perf's timestamp order, EventQueue.h), byte for byte.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_DUMP_PERFDATACOMMAND_H
#define BBMAP_DUMP_PERFDATACOMMAND_H

#include "bbmap/Support/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace bbmap {

struct PerfDataPrintOptions {
  /// -F pid,event,brstack instead of -F pid,event,ip.
  bool BranchStack = false;
};

/// Prints one perf.data file in memory to \p OS; stops at the first error,
/// after the text of the records before it. \p Mapped: the buffer maps the
/// file, whose pages are given back as printing goes.
llvm::Error printPerfScript(llvm::MemoryBufferRef File,
                            const PerfDataPrintOptions &Opts,
                            llvm::raw_ostream &OS, bool Mapped = false);

/// Prints each file; returns the exit status (1 if any file failed).
int runPerfData(llvm::ArrayRef<std::string> Files,
                const PerfDataPrintOptions &Opts, Diagnostics &Diag);

} // namespace bbmap

#endif // BBMAP_DUMP_PERFDATACOMMAND_H

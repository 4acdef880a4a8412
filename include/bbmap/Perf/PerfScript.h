//===- PerfScript.h - perf script's text of a perf.data file ----*- C++ -*-===//
//
// Prints a perf.data file (file or pipe mode) as perf 6.1 prints it with
//   perf script -F pid,event,ip --show-mmap-events --show-task-events -G
//               --no-itrace -i FILE
// or, with BranchStack, -F pid,event,brstack (builtin-script.c and
// util/event.c): samples, MMAP/MMAP2, COMM, FORK and EXIT records in
// perf's delivery order (EventQueue.h), byte for byte.
//
// A file with ARM SPE AUX data (an AUXTRACE_INFO of ARM SPE and an event
// of its PMU, SpeTrace.h) is printed, without BranchStack and unless
// DecodeSpe is off, as
//   perf script -F pid,event,ip,addr --show-mmap-events
//               --show-task-events -G --itrace=bi1i -i FILE
// prints it: each SPE record becomes a `branch-miss` sample (addr the
// branch target) if it was mispredicted, then an `instructions` sample
// (addr the data virtual address), both at its PC, between the other
// records where perf 6.1 synthesizes them, and every sample has the addr
// column; event names are padded to the widest of the file's and the two
// synthesized ones. Whether the file is printed so is decided at its
// first sample (perf record writes AUXTRACE_INFO before any).
//
// The calling thread reads the records, orders them and decodes them (every
// check, in order); it cuts the delivered records into batches of lines
// that point into the file, which OrderedOutput's threads format and write
// in order. The text is the same for every thread count and batch size.
//
// Threading: printPerfScript reads File on the calling thread and formats
// on Out's; distinct files may be printed at once to distinct outputs.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PERF_PERFSCRIPT_H
#define BBMAP_PERF_PERFSCRIPT_H

#include "bbmap/Perf/PerfFile.h"
#include "bbmap/Support/OrderedOutput.h"
#include "llvm/Support/Error.h"
#include <cstddef>

namespace bbmap::perf {

struct PerfScriptOptions {
  /// -F pid,event,brstack instead of -F pid,event,ip.
  bool BranchStack = false;
  /// Decode ARM SPE AUX data (--itrace=bi1i, -F ...,addr); off: print the
  /// file as --no-itrace does.
  bool DecodeSpe = true;
  /// A batch, formatted by one task, ends after the record that brings the
  /// bytes of its records to this many (about the size of its text).
  size_t BatchBytes = 512 << 10;
};

/// Prints every record of \p File to \p Out. Stops at the first error (a
/// malformed record, in delivery order), which it returns after the text
/// of the records before it. Returns once every piece it submitted to
/// \p Out is written, so \p File and its buffer may go then.
llvm::Error printPerfScript(PerfFile &File, const PerfScriptOptions &Opts,
                            OrderedOutput &Out);

} // namespace bbmap::perf

#endif // BBMAP_PERF_PERFSCRIPT_H

//===- PerfScriptReader.h - perf script reader ------------------*- C++ -*-===//
//
// Reads the text `perf script` prints into a BranchProfile of one binary:
// branch stacks (`-F brstack`) become aggregated traces, instruction
// pointers become aggregated samples, and runtime addresses become the
// binary's own virtual addresses through the mmap events perf prints with
// --show-mmap-events. Accepted layouts, one record per line:
//
//   bbmap's own (what readPerfData asks for):
//     perf script -F pid,event,ip --show-mmap-events --show-task-events -G
//     perf script -F pid,event,brstack --show-mmap-events --show-task-events
//   perf2bolt's:  -F pid,brstack  and  -F pid,event,ip
//   perf's default line, with or without brstack appended:
//     COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT: IP SYM+OFF (DSO) [BRSTACK...]
//
// A sample's process is the PID before the first `:`-terminated field; its
// IP is the hexadecimal field right after the event (or the time); every
// field shaped `0xFROM/0xTO/FLAGS...` is a branch stack entry, newest
// first. Symbolised stacks (-F brstacksym) and callchain lines (perf record
// -g without -G) are rejected with the line that shows them.
//
// Threading: the reader keeps its state in the call: calls may run on several
// threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PERFSCRIPTREADER_H
#define BBMAP_PROFILE_PERFSCRIPTREADER_H

#include "bbmap/Profile/BranchProfile.h"
#include "bbmap/Profile/PerfAggregator.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <optional>

namespace bbmap {

/// Aggregates perf script text. parse() may be called more than once (for
/// instance with mmap events and samples from separate perf runs); the
/// mmap state carries over.
///
/// Address rule: an executable mmap event of the binary (path file name
/// equal to the name, or its build-id equal to the binary's) maps
/// [Start, Start + Len) to file offsets from PgOff. The segment it maps is
/// the executable PT_LOAD with PgOff <= p_offset < PgOff + 64 KiB (the
/// largest page size; the smallest p_offset if several); then
///   address = runtime - Start + PgOff - p_offset + p_vaddr,
/// kept only if it lies inside a PT_LOAD segment. This is the load bias
/// for PIE and shared objects and zero for ET_EXEC. An ET_EXEC binary with
/// no mmap event in the input takes runtime addresses as they are. A
/// sample with a PID uses that process's mappings (inherited on FORK,
/// dropped on COMM exec; where several hold the address, the oldest); one
/// without uses any process's, the processes whose mappings changed last
/// first.
///
/// Branch stacks, newest entry e0 first: each entry e_i is a taken branch;
/// for i > 0 the run from e_i.To to e_{i-1}.From is its fall-through, so
/// e_i becomes a BranchAndFallthrough trace {e_i.From, e_i.To,
/// e_{i-1}.From}, and the newest entry, whose run is not over, a Branch
/// trace {e0.From, e0.To} (perf2bolt's Trace::BR_ONLY). An end outside the
/// binary is 0 with FromExternal/ToExternal set; a run that starts or ends
/// outside the binary is dropped (the trace keeps its branch); an entry
/// with neither branch end inside is counted in Skipped.Outside. IP
/// samples outside the binary, and the samples and stack entries of
/// processes that never mapped it, count in Skipped.OtherBinary. Mappings that
/// are not executable (perf record -d) are ignored.
class PerfScriptReader {
public:
  explicit PerfScriptReader(const PerfBinary &Binary,
                            PerfScriptOptions Options = {});

  /// Reads one text; errors are "BUFFER:LINE: what is wrong".
  llvm::Error parse(llvm::MemoryBufferRef Text);

  /// The profile read so far; the reader starts empty again.
  BranchProfile takeProfile();

  /// One text, one profile.
  static llvm::Expected<BranchProfile>
  read(llvm::MemoryBufferRef Text, const PerfBinary &Binary,
       const PerfScriptOptions &Options = {});

private:
  llvm::Error parseLine(llvm::StringRef Line);
  llvm::Error parseMMap(llvm::StringRef Record);
  llvm::Error parseFork(llvm::StringRef Record);
  llvm::Error parseCommExec(llvm::StringRef Record);
  llvm::Error parseSample(llvm::StringRef Line);

  const PerfBinary &Binary;
  PerfScriptOptions Options;
  std::unique_ptr<PerfAggregator> Aggregator;
  llvm::SmallVector<PerfBranch, 32> Stack;
};

} // namespace bbmap

#endif // BBMAP_PROFILE_PERFSCRIPTREADER_H

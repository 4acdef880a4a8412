//===- ProcessCode.h - the code a profiled process ran, by line -*- C++ -*-===//
//
// What a perf.data file says of the code its processes ran in every object
// they mapped, the profiled binary and the others alike (the C library, the
// dynamic loader, other shared objects): per cache line of each object's
// file, a weight in the profile's own unit, an IP sample for each sample in
// the line, a branch record for each fall-through run of a branch stack
// that crosses it. A placement of the binary's hot code is weighed against
// the lines of the other objects (Layout/Placement.h).
//
// Threading: the functions keep their state in the call: calls on different
// ProcessCode may run at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PROCESSCODE_H
#define BBMAP_PROFILE_PROCESSCODE_H

#include "bbmap/Support/Warnings.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bbmap {

struct ProcessCode {
  /// The objects other than the binary, by path as the mmap events name
  /// them.
  std::vector<std::string> Objects;
  /// (index into Objects, file offset of the line's first byte) -> weight.
  llvm::DenseMap<std::pair<uint32_t, uint64_t>, double> OtherLines;
  /// The weights of the binary's own lines, summed: the scale the other
  /// objects' weights are in.
  uint64_t BinaryWeight = 0;
  /// The weights are of branch stacks' runs (else of IP samples).
  bool HasBranches = false;
  /// Objects spreadOverFunctions could not read, or whose .eh_frame it
  /// could not read whole.
  WarningList Warnings;
};

/// Reads \p PerfData (natively) for the lines of \p LineBytes bytes (a
/// power of two) that its samples ran: IP samples, or the fall-through runs
/// of branch stacks (from one entry's target to the next newer entry's
/// source, within one mapping, at most 4 KiB). The binary's mappings are
/// those of files named \p BinaryName (no directories).
llvm::Expected<ProcessCode> readProcessCode(llvm::StringRef PerfData,
                                            llvm::StringRef BinaryName,
                                            uint64_t LineBytes);

/// IP samples see a line only when a sample falls in it, though the other
/// lines of a sampled function run too: spreads the samples of each
/// function of the other objects evenly over its lines, the functions
/// being the FDEs of the object's .eh_frame (stripped libraries keep
/// them). Lines of objects this machine cannot read, or outside every FDE,
/// stay as sampled.
void spreadOverFunctions(ProcessCode &Code, uint64_t LineBytes);

/// As readProcessCode, for a perf.data file in memory.
llvm::Expected<ProcessCode>
readProcessCodeBuffer(llvm::MemoryBufferRef PerfData,
                      llvm::StringRef BinaryName, uint64_t LineBytes);

} // namespace bbmap

#endif // BBMAP_PROFILE_PROCESSCODE_H

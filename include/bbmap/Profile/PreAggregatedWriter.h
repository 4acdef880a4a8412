//===- PreAggregatedWriter.h - BOLT pre-aggregated text ---------*- C++ -*-===//
//
// Writes a BranchProfile as the pre-aggregated profile perf2bolt-22 reads
// (`perf2bolt --pa`, the 22 dialect) and PreAggregatedReader reads back:
//
//   E <event>                      each event name, sorted
//   S <addr> <count>               IP samples, by address
//   B <from> <to> <count> <mis>    branches alone
//   T <from> <to> <end> <count>    a branch and the run after it
//   R <from> <to> <end> <count>    the same, where the branch is a return
//   F/f/r <start> <end> <count>    runs alone (from the same function, from
//                                  outside, after a return from outside)
//
// Addresses are hexadecimal without 0x; an end outside the binary is
// written X:<addr>. T and R lines carry no mispredictions, so those of a
// trace are added to the B line of the same branch (a B line with count 0
// when it has none). Lines are sorted and identical records summed, so
// profiles with the same records give the same bytes whatever order or
// grouping of inputs they were summed from.
//
// Threading: the writer keeps no state: calls may run on several threads at
// once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PROFILE_PREAGGREGATEDWRITER_H
#define BBMAP_PROFILE_PREAGGREGATEDWRITER_H

#include "bbmap/Profile/BranchProfile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace bbmap {

/// Fails on a profile translated from a BOLTed binary (its records name
/// what their branches are, which the text cannot say) and on a summed
/// count above 2^63-1.
llvm::Error writePreAggregated(const BranchProfile &Profile,
                               llvm::raw_ostream &OS);

/// Adds \p From's records to \p Into, summing identical ones, and sorts
/// the records, so that any order and grouping of the same inputs gives
/// the same profile. Fails when a sum exceeds 2^63-1.
llvm::Error mergeProfile(BranchProfile &Into, BranchProfile &&From);

} // namespace bbmap

#endif // BBMAP_PROFILE_PREAGGREGATEDWRITER_H

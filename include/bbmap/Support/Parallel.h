//===- Parallel.h - independent items on several threads -------*- C++ -*-===//
//
// How every part of bbmap that knows its items up front runs them on
// threads: the caller's thread count (a tool's --threads) is passed down,
// and the calling thread works beside a pool made for the call. Per-function
// work (profile inference, block layout) costs the most in a few large
// functions: threads that take the items costliest first stay busy to the
// end, where llvm::parallelFor's fixed chunks may leave one thread with the
// largest function last. llvm::parallelFor is not used at all: its thread
// count is one setting of the whole process (parallel::strategy), which a
// library cannot set per call. Work that is made while an input is read
// (ordered output, perf.data batches) runs on a pool of the same count.
//
// Threading: every function may be called from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_SUPPORT_PARALLEL_H
#define BBMAP_SUPPORT_PARALLEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstdint>
#include <vector>

namespace bbmap {

/// \p Requested threads, or with 0 the machine's hardware threads.
unsigned threadCount(unsigned Requested);

/// Calls \p Work(I) once for each I in \p Order on up to \p Threads threads
/// (the calling thread among them; 0: the machine's hardware threads), each
/// taking the next item of \p Order as it finishes one. \p Work must be
/// safe to run concurrently for different items.
void forEachInOrder(llvm::ArrayRef<uint32_t> Order, unsigned Threads,
                    llvm::function_ref<void(uint32_t)> Work);

/// forEachInOrder over 0 to \p Count - 1, in that order.
void forEachIndex(size_t Count, unsigned Threads,
                  llvm::function_ref<void(size_t)> Work);

/// Runs \p First and \p Second, two independent tasks, at the same time
/// unless \p Threads is 1 (0: the machine's hardware threads).
void runBoth(unsigned Threads, llvm::function_ref<void()> First,
             llvm::function_ref<void()> Second);

/// The indices of \p Costs, the largest cost first (ties in index order).
std::vector<uint32_t> costliestFirst(llvm::ArrayRef<uint64_t> Costs);

} // namespace bbmap

#endif // BBMAP_SUPPORT_PARALLEL_H

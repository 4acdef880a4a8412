//===- Parallel.h - independent items on several threads -------*- C++ -*-===//
//
// Per-function work (profile inference, block layout) costs the most in a
// few large functions: threads that take the items costliest first stay
// busy to the end, where llvm::parallelFor's fixed chunks may leave one
// thread with the largest function last.
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

/// Runs \p First and \p Second, two independent tasks, at the same time
/// unless \p Threads is 1 (0: the machine's hardware threads).
void runBoth(unsigned Threads, llvm::function_ref<void()> First,
             llvm::function_ref<void()> Second);

/// The indices of \p Costs, the largest cost first (ties in index order).
std::vector<uint32_t> costliestFirst(llvm::ArrayRef<uint64_t> Costs);

} // namespace bbmap

#endif // BBMAP_SUPPORT_PARALLEL_H

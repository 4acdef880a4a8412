//===- Parallel.cpp - independent items on several threads ----------------===//
//
// A shared counter hands out the items in order; the calling thread works
// beside the pool's.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/Parallel.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <atomic>
#include <numeric>

using namespace llvm;

namespace bbmap {

unsigned threadCount(unsigned Requested) {
  return Requested ? Requested : hardware_concurrency().compute_thread_count();
}

void forEachIndex(size_t Count, unsigned Threads,
                  function_ref<void(size_t)> Work) {
  Threads = std::max<size_t>(1, std::min<size_t>(threadCount(Threads), Count));
  std::atomic<size_t> Next{0};
  auto Take = [&] {
    for (size_t I = Next++; I < Count; I = Next++)
      Work(I);
  };
  if (Threads == 1) {
    Take();
    return;
  }
  DefaultThreadPool Pool(hardware_concurrency(Threads - 1));
  for (unsigned T = 1; T < Threads; ++T)
    Pool.async(Take);
  Take();
  Pool.wait();
}

void forEachInOrder(ArrayRef<uint32_t> Order, unsigned Threads,
                    function_ref<void(uint32_t)> Work) {
  forEachIndex(Order.size(), Threads, [&](size_t I) { Work(Order[I]); });
}

void runBoth(unsigned Threads, function_ref<void()> First,
             function_ref<void()> Second) {
  forEachIndex(2, Threads,
               [&](size_t Task) { Task == 0 ? First() : Second(); });
}

std::vector<uint32_t> costliestFirst(ArrayRef<uint64_t> Costs) {
  std::vector<uint32_t> Order(Costs.size());
  std::iota(Order.begin(), Order.end(), 0);
  llvm::stable_sort(
      Order, [&](uint32_t A, uint32_t B) { return Costs[A] > Costs[B]; });
  return Order;
}

} // namespace bbmap

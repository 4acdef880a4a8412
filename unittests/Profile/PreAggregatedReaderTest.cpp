//===- PreAggregatedReaderTest.cpp - the threads a large file is read on --===//
//
// A large pre-aggregated file is read in parts on the threads the caller
// asks for, and on no other: a thread beside the reader counts the
// process's threads (/proc/self/task) while it reads. One thread reads it
// on the calling thread alone; three read it on more, with the same
// profile.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Profile/PreAggregatedReader.h"
#include "TestUtil.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <string>
#include <thread>

using namespace bbmap;
using namespace llvm;

namespace {

/// About 13 MiB of traces (three of the reader's 4 MiB parts), many of
/// them repeated.
std::string largeProfile() {
  std::string Text;
  raw_string_ostream OS(Text);
  for (unsigned I = 0; Text.size() < (13u << 20); ++I)
    OS << format("T %x %x %x %u\n", 0x1000 + I % 4099, 0x2000 + I % 3001,
                 0x2100 + I % 3001, I % 7 + 1);
  return Text;
}

size_t threadsNow() {
  return std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                       std::filesystem::directory_iterator());
}

/// Reads \p Text on \p Threads threads; \p MostThreads is the most threads
/// the process had meanwhile, less the counting thread.
Expected<BranchProfile> readCounting(StringRef Text, unsigned Threads,
                                     size_t &MostThreads) {
  std::atomic<bool> Done{false};
  std::atomic<size_t> Most{0};
  std::thread Counter([&] {
    while (!Done) {
      Most = std::max<size_t>(Most, threadsNow());
      // A reading thread lives as long as it reads a part, milliseconds.
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  // The counter has started and counted itself before the reading begins.
  while (Most == 0)
    std::this_thread::yield();
  Expected<BranchProfile> P =
      PreAggregatedReader::read(MemoryBufferRef(Text, "large.pa"), "", Threads);
  Done = true;
  Counter.join();
  MostThreads = Most - 1;
  return P;
}

TEST(PreAggregatedReaderTest, ReadsOnTheThreadsAskedFor) {
  std::string Text = largeProfile();
  size_t Before = threadsNow();
  size_t OnOne = 0, OnThree = 0;
  BBMAP_ASSERT_VALUE(One, readCounting(Text, 1, OnOne));
  EXPECT_EQ(OnOne, Before) << "--threads=1 read on other threads";
  BBMAP_ASSERT_VALUE(Three, readCounting(Text, 3, OnThree));
  EXPECT_GT(OnThree, Before) << "three threads were asked for";
  EXPECT_EQ(threadsNow(), Before);
  ASSERT_EQ(One->Traces.size(), Three->Traces.size());
  for (size_t I = 0; I < One->Traces.size(); ++I) {
    EXPECT_EQ(One->Traces[I].From, Three->Traces[I].From) << I;
    EXPECT_EQ(One->Traces[I].To, Three->Traces[I].To) << I;
    EXPECT_EQ(One->Traces[I].Count, Three->Traces[I].Count) << I;
  }
  EXPECT_EQ(One->Read.Lines, Three->Read.Lines);
}

} // namespace

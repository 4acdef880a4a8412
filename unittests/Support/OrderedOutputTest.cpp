//===- OrderedOutputTest.cpp - OrderedOutput on 1 to 8 threads ------------===//
//
// Pieces made on a thread pool come out in submission order, mixed with
// text written between tasks and through stream(), pieces empty and
// larger than a buffer; each piece's action and each then() action runs
// after everything before it is on the stream, one at a time, in order;
// no more tasks are in flight than the window allows; the destructor
// writes what is pending. Tasks take uneven time so that they finish out
// of order.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OrderedOutput.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

/// The text of item \p I: its number, sometimes nothing, sometimes more
/// than a megabyte.
std::string pieceText(unsigned I) {
  if (I % 7 == 3)
    return "";
  if (I % 97 == 5)
    return std::string((1 << 20) + 3, char('a' + I % 26)) + "\n";
  return "piece " + std::to_string(I) + "\n";
}

void busyFor(unsigned Micros) {
  auto End =
      std::chrono::steady_clock::now() + std::chrono::microseconds(Micros);
  while (std::chrono::steady_clock::now() < End)
    std::this_thread::yield();
}

/// Raises \p Max to \p V when \p V is larger.
void raiseTo(std::atomic<unsigned> &Max, unsigned V) {
  unsigned Old = Max;
  while (V > Old && !Max.compare_exchange_weak(Old, V))
    ;
}

TEST(OrderedOutputTest, PiecesActionsAndTextInOrder) {
  for (unsigned Threads : {1u, 2u, 3u, 8u}) {
    SCOPED_TRACE("threads " + std::to_string(Threads));
    std::string Text;
    raw_string_ostream OS(Text);
    std::string Want;
    std::vector<std::string> Actions;
    std::vector<size_t> ActionSeen;
    std::atomic<unsigned> InFlight{0}, MaxInFlight{0};
    std::atomic<bool> ActionRunning{false}, Overlap{false};
    std::mt19937 Rng(Threads);
    {
      OrderedOutput Out(OS, Threads);
      EXPECT_EQ(Out.threads(), Threads);
      for (unsigned I = 0; I < 400; ++I) {
        unsigned Delay = Rng() % 200;
        std::string Piece = pieceText(I);
        Want += Piece;
        size_t WantSoFar = Want.size();
        Out.submit(
            [&, Piece, Delay](TextPiece &T) {
              raiseTo(MaxInFlight, ++InFlight);
              busyFor(Delay);
              T.append(Piece.begin(), Piece.end());
            },
            [&, I, WantSoFar] {
              --InFlight;
              if (ActionRunning.exchange(true))
                Overlap = true;
              // Everything before it, its own piece included, is out.
              ActionSeen.push_back(Text.size() == WantSoFar);
              Actions.push_back("task " + std::to_string(I));
              ActionRunning = false;
            });
        if (I % 10 == 0) {
          std::string Between = "between " + std::to_string(I) + "\n";
          Out.write(Between);
          Want += Between;
        }
        if (I % 25 == 0) {
          size_t At = Want.size();
          Out.then([&, I, At] {
            ActionSeen.push_back(Text.size() == At);
            Actions.push_back("then " + std::to_string(I));
          });
        }
        if (I % 50 == 0) {
          Out.stream() << "stream " << I << "\n";
          Want += "stream " + std::to_string(I) + "\n";
        }
      }
      // The destructor waits for the rest.
    }
    EXPECT_EQ(Text.size(), Want.size());
    EXPECT_TRUE(Text == Want) << "the output differs from the pieces in order";
    std::vector<std::string> WantActions;
    for (unsigned I = 0; I < 400; ++I) {
      WantActions.push_back("task " + std::to_string(I));
      if (I % 25 == 0)
        WantActions.push_back("then " + std::to_string(I));
    }
    EXPECT_EQ(Actions, WantActions);
    EXPECT_EQ(ActionSeen, std::vector<size_t>(WantActions.size(), 1));
    EXPECT_FALSE(Overlap) << "two actions ran at once";
    EXPECT_LE(MaxInFlight, 4 * Threads) << "more tasks in flight than the "
                                           "window";
  }
}

TEST(OrderedOutputTest, FinishWritesEverythingAndCanBeCalledAgain) {
  std::string Text;
  raw_string_ostream OS(Text);
  OrderedOutput Out(OS, 2);
  for (unsigned I = 0; I < 50; ++I)
    Out.submit([I](TextPiece &T) {
      busyFor((50 - I) * 20);
      std::string S = std::to_string(I) + ",";
      T.append(S.begin(), S.end());
    });
  Out.finish();
  std::string Want;
  for (unsigned I = 0; I < 50; ++I)
    Want += std::to_string(I) + ",";
  EXPECT_EQ(Text, Want);
  Out.write("after");
  Out.finish();
  EXPECT_EQ(Text, Want + "after");
}

TEST(OrderedOutputTest, OneThreadRunsEachTaskAtSubmission) {
  std::string Text;
  raw_string_ostream OS(Text);
  OrderedOutput Out(OS, 0);
  EXPECT_EQ(Out.threads(), 1u);
  std::thread::id Caller = std::this_thread::get_id();
  bool Ran = false;
  Out.submit([&](TextPiece &T) {
    Ran = std::this_thread::get_id() == Caller;
    T.push_back('x');
  });
  EXPECT_TRUE(Ran);
  Out.finish();
  EXPECT_EQ(Text, "x");
}

} // namespace

//===- WarningListTest.cpp - one warning per kind -------------------------===//
//
// A WarningList keeps the first warning of each kind, in the order added,
// with the message of the error it consumes; append adds the kinds not
// kept yet; threads that add at once still keep one per kind.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/Warnings.h"
#include "gtest/gtest.h"
#include <thread>
#include <vector>

using namespace bbmap;
using namespace llvm;

namespace {

Error failure(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

TEST(WarningListTest, KeepsTheFirstOfEachKind) {
  WarningList W;
  W.add("symbol name", "unable to read the name of symbol 3",
        failure("st_name past the end"));
  W.add("symbol table", "unable to read the symbol table");
  W.add("symbol name", "unable to read the name of symbol 7",
        failure("st_name past the end"));
  ASSERT_EQ(W.messages().size(), 2u);
  EXPECT_EQ(W.messages()[0],
            "unable to read the name of symbol 3: st_name past the end");
  EXPECT_EQ(W.messages()[1], "unable to read the symbol table");
}

TEST(WarningListTest, AppendAddsKindsNotKept) {
  WarningList A, B;
  A.add("x", "first x");
  B.add("x", "second x");
  B.add("y", "first y");
  A.append(B);
  A.append(A);
  ASSERT_EQ(A.messages().size(), 2u);
  EXPECT_EQ(A.messages()[0], "first x");
  EXPECT_EQ(A.messages()[1], "first y");
  WarningList Copy = A;
  EXPECT_EQ(Copy.messages().size(), 2u);
}

TEST(WarningListTest, ThreadsAddingAtOnceKeepOnePerKind) {
  WarningList W;
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (unsigned I = 0; I < 1000; ++I)
        W.add("kind " + std::to_string(I % 10),
              "thread " + Twine(T) + " item " + Twine(I));
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(W.messages().size(), 10u);
}

} // namespace

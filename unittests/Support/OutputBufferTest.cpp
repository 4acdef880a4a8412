//===- OutputBufferTest.cpp - OutputBuffer's numbers and reservations -----===//
//
// The in-place number formatting at every digit count, against
// std::to_string and llvm::format_hex; reservations and appends larger than
// a stream's buffer; a text piece trimmed to what was written.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OutputBuffer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace llvm;
using namespace bbmap;

namespace {

std::vector<uint64_t> interestingNumbers() {
  std::vector<uint64_t> Values = {0, UINT64_MAX, UINT64_MAX - 1};
  for (uint64_t P = 1; P <= UINT64_MAX / 10; P *= 10)
    for (uint64_t V : {P - 1, P, P + 1, 2 * P, 10 * P - 1})
      Values.push_back(V);
  for (unsigned Bit = 0; Bit < 64; ++Bit)
    for (uint64_t V : {uint64_t(1) << Bit, (uint64_t(1) << Bit) - 1})
      Values.push_back(V);
  return Values;
}

TEST(OutputBufferTest, Decimal) {
  for (uint64_t V : interestingNumbers()) {
    char Buf[OutputBuffer::MaxNumberSize + 1];
    char *End = OutputBuffer::putDecimal(Buf, V);
    EXPECT_EQ(std::string(Buf, End), std::to_string(V));
    EXPECT_EQ(OutputBuffer::decimalDigits(V), std::to_string(V).size()) << V;
  }
}

TEST(OutputBufferTest, Hex) {
  for (uint64_t V : interestingNumbers())
    for (bool Upper : {false, true}) {
      char Buf[OutputBuffer::MaxNumberSize + 1];
      char *End = OutputBuffer::putHex(Buf, V, Upper);
      std::string Want;
      raw_string_ostream(Want) << format_hex(V, 0, Upper);
      // format_hex writes "0X" with upper-case digits; the writers "0x".
      Want[1] = 'x';
      EXPECT_EQ(std::string(Buf, End), Want);
    }
}

TEST(OutputBufferTest, ReserveMoreThanTheStreamBuffer) {
  for (size_t N : {OutputBuffer::Capacity - 1, OutputBuffer::Capacity,
                   OutputBuffer::Capacity + 1, size_t(3) << 20}) {
    std::string Text;
    raw_string_ostream OS(Text);
    {
      OutputBuffer Out(OS);
      Out.append("head ");
      char *P = Out.reserve(N);
      std::memset(P, 'x', N);
      Out.commit(P + N);
      // The buffer keeps working at its new size.
      Out.append(" tail");
      P = Out.reserve(1);
      *P = '.';
      Out.commit(P + 1);
    }
    OS.flush();
    EXPECT_EQ(Text, "head " + std::string(N, 'x') + " tail.") << N;
  }
}

TEST(OutputBufferTest, AppendMoreThanTheStreamBuffer) {
  std::string Long(OutputBuffer::Capacity * 3 + 5, 'y');
  std::string Text;
  raw_string_ostream OS(Text);
  {
    OutputBuffer Out(OS);
    Out.append("a");
    Out.append(Long);
    Out.append("b");
  }
  OS.flush();
  EXPECT_EQ(Text, "a" + Long + "b");
}

TEST(OutputBufferTest, PieceKeepsWhatWasWritten) {
  TextPiece Piece;
  {
    OutputBuffer Out(Piece);
    char *P = Out.reserve(100);
    P = OutputBuffer::put(P, "abc");
    Out.commit(P);
    Out.flush();
    EXPECT_EQ(std::string(Piece.data(), Piece.size()), "abc");
    Out.append(std::string(size_t(1) << 20, 'z'));
  }
  EXPECT_EQ(Piece.size(), 3 + (size_t(1) << 20));
  EXPECT_EQ(Piece.back(), 'z');
}

} // namespace

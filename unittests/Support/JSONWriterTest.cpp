//===- JSONWriterTest.cpp - JSONWriter against JSONScopedPrinter ----------===//
//
// JSONWriter writes the bytes of llvm::JSONScopedPrinter, compact and
// indented: checked on one script of every field and scope with labels of
// 0 bytes to 1 MB, to a stream (through OutputBuffer's 64 KiB buffer) and
// to a text piece; random lines of random labels across the buffer's edge;
// string values that need escaping, are not UTF-8 or are longer than the
// buffer; a writer continuing another's array at a depth whose indentation
// is longer than the buffer.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/JSONWriter.h"
#include "WriterScript.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace bbmap;

namespace {

std::string expected(StringRef Label, StringRef Value, bool Pretty) {
  std::string Text;
  raw_string_ostream OS(Text);
  {
    JSONScopedPrinter P(OS, Pretty);
    PrinterAdaptor A(P);
    writeScript(A, Label, Value);
  }
  OS.flush();
  return Text;
}

std::string toStream(StringRef Label, StringRef Value, bool Pretty) {
  std::string Text;
  raw_string_ostream OS(Text);
  {
    JSONWriter W(OS, Pretty);
    writeScript(W, Label, Value);
  }
  OS.flush();
  return Text;
}

std::string toPiece(StringRef Label, StringRef Value, bool Pretty) {
  TextPiece Piece;
  {
    JSONWriter W(Piece, Pretty);
    writeScript(W, Label, Value);
  }
  return std::string(Piece.data(), Piece.size());
}

void checkBothTargets(StringRef Label, StringRef Value, const Twine &What) {
  for (bool Pretty : {false, true}) {
    std::string Want = expected(Label, Value, Pretty);
    EXPECT_EQ(toStream(Label, Value, Pretty), Want)
        << What.str() << (Pretty ? ", pretty" : ", compact");
    EXPECT_EQ(toPiece(Label, Value, Pretty), Want)
        << What.str() << (Pretty ? ", pretty" : ", compact");
  }
}

TEST(JSONWriterTest, LabelsOfEveryLength) {
  for (size_t Size : labelSizes())
    checkBothTargets(labelOfSize(Size), "value",
                     "label of " + Twine(Size) + " bytes");
}

TEST(JSONWriterTest, RandomLines) {
  for (uint64_t Seed = 1; Seed <= 4; ++Seed)
    for (bool Pretty : {false, true}) {
      std::string Want;
      raw_string_ostream WantOS(Want);
      {
        JSONScopedPrinter P(WantOS, Pretty);
        PrinterAdaptor A(P);
        writeRandom(A, Seed, 30000);
      }
      WantOS.flush();
      std::string Text;
      raw_string_ostream OS(Text);
      TextPiece Piece;
      {
        JSONWriter ToStream(OS, Pretty), ToPiece(Piece, Pretty);
        writeRandom(ToStream, Seed, 30000);
        writeRandom(ToPiece, Seed, 30000);
      }
      OS.flush();
      EXPECT_TRUE(Text == Want) << "seed " << Seed << ", pretty " << Pretty;
      EXPECT_TRUE(std::string(Piece.data(), Piece.size()) == Want)
          << "seed " << Seed << ", pretty " << Pretty;
    }
}

TEST(JSONWriterTest, StringValues) {
  checkBothTargets("L", "", "empty");
  checkBothTargets("L", "tab\there \"quoted\" back\\slash", "escaped");
  checkBothTargets("L", "caf\xc3\xa9 \xff\xfe", "not UTF-8");
  checkBothTargets("L", labelOfSize(OutputBuffer::Capacity - 2),
                   "as long as the buffer");
  checkBothTargets("L", labelOfSize(size_t(1) << 20), "1 MB");
}

TEST(JSONWriterTest, ContinuesAnArrayDeeperThanTheBuffer) {
  // A writer continuing an array opened at depth 40000 (80000 spaces) by
  // another writer, after its elements.
  unsigned Depth = 40000;
  std::string Indent(2 * Depth, ' ');
  std::string Want =
      ",\n" + Indent + "{\n" + Indent + "  \"A\": 1\n" + Indent + "}";
  std::string Text;
  raw_string_ostream OS(Text);
  {
    JSONWriter W(OS, /*Pretty=*/true, Depth, /*HasElements=*/true);
    W.beginObject();
    W.number("A", 1);
    W.endObject();
    EXPECT_EQ(W.depth(), Depth);
  }
  OS.flush();
  EXPECT_EQ(Text, Want);
  TextPiece Piece;
  {
    JSONWriter W(Piece, /*Pretty=*/true, Depth, /*HasElements=*/true);
    W.beginObject();
    W.number("A", 1);
    W.endObject();
  }
  EXPECT_EQ(std::string(Piece.data(), Piece.size()), Want);
}

} // namespace

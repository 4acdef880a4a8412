//===- TextWriterTest.cpp - TextWriter against ScopedPrinter --------------===//
//
// TextWriter writes the bytes of llvm::ScopedPrinter's LLVM style: checked
// on one script of every field and scope with labels of 0 bytes to 1 MB,
// to a stream (through OutputBuffer's 64 KiB buffer) and to a text piece;
// random lines of random labels across the buffer's edge; indentation
// deeper than the buffer; long string values.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/TextWriter.h"
#include "WriterScript.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace bbmap;

namespace {

std::string expected(StringRef Label, StringRef Value) {
  std::string Text;
  raw_string_ostream OS(Text);
  ScopedPrinter P(OS);
  PrinterAdaptor A(P);
  writeScript(A, Label, Value);
  OS.flush();
  return Text;
}

std::string toStream(StringRef Label, StringRef Value) {
  std::string Text;
  raw_string_ostream OS(Text);
  {
    TextWriter W(OS);
    writeScript(W, Label, Value);
  }
  OS.flush();
  return Text;
}

std::string toPiece(StringRef Label, StringRef Value) {
  TextPiece Piece;
  {
    TextWriter W(Piece);
    writeScript(W, Label, Value);
  }
  return std::string(Piece.data(), Piece.size());
}

TEST(TextWriterTest, LabelsOfEveryLength) {
  for (size_t Size : labelSizes()) {
    std::string Label = labelOfSize(Size);
    std::string Want = expected(Label, "value");
    EXPECT_EQ(toStream(Label, "value"), Want) << "label of " << Size;
    EXPECT_EQ(toPiece(Label, "value"), Want) << "label of " << Size;
  }
}

TEST(TextWriterTest, RandomLines) {
  for (uint64_t Seed = 1; Seed <= 4; ++Seed) {
    std::string Want;
    raw_string_ostream WantOS(Want);
    ScopedPrinter P(WantOS);
    PrinterAdaptor A(P);
    writeRandom(A, Seed, 30000);
    WantOS.flush();
    std::string Text;
    raw_string_ostream OS(Text);
    TextPiece Piece;
    {
      TextWriter ToStream(OS), ToPiece(Piece);
      writeRandom(ToStream, Seed, 30000);
      writeRandom(ToPiece, Seed, 30000);
    }
    OS.flush();
    EXPECT_TRUE(Text == Want) << "seed " << Seed;
    EXPECT_TRUE(std::string(Piece.data(), Piece.size()) == Want)
        << "seed " << Seed;
  }
}

TEST(TextWriterTest, LongValues) {
  for (size_t Size : {size_t(1) << 16, size_t(1) << 20}) {
    std::string Value = labelOfSize(Size);
    std::string Want = expected("Name", Value);
    EXPECT_EQ(toStream("Name", Value), Want) << "value of " << Size;
    EXPECT_EQ(toPiece("Name", Value), Want) << "value of " << Size;
  }
}

TEST(TextWriterTest, DeepIndentation) {
  // Deeper than the 64 spaces copied at once, and deeper than a stream's
  // whole buffer (2 * 40000 spaces).
  for (unsigned Depth : {31u, 32u, 33u, 40000u}) {
    std::string Indent(2 * Depth, ' ');
    std::string Want = Indent + "A: 0x1\n" + Indent + "B {\n" + Indent +
                       "  C: 2\n" + Indent + "}\n" + Indent + "\n";
    auto Write = [](TextWriter &W) {
      W.hex("A", 1);
      W.beginObject("B");
      W.number("C", 2);
      W.endObject();
      W.blankLine();
    };
    std::string Text;
    raw_string_ostream OS(Text);
    {
      TextWriter W(OS, Depth);
      Write(W);
      EXPECT_EQ(W.depth(), Depth);
    }
    OS.flush();
    EXPECT_EQ(Text, Want) << "depth " << Depth;
    TextPiece Piece;
    {
      TextWriter W(Piece, Depth);
      Write(W);
    }
    EXPECT_EQ(std::string(Piece.data(), Piece.size()), Want)
        << "depth " << Depth;
  }
}

TEST(TextWriterTest, FlushHandsOverWhatWasWritten) {
  std::string Text;
  raw_string_ostream OS(Text);
  TextWriter W(OS);
  W.number("N", 7);
  EXPECT_EQ(Text, "");
  W.flush();
  EXPECT_EQ(Text, "N: 7\n");
}

} // namespace

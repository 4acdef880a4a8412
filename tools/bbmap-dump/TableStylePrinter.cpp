//===- TableStylePrinter.cpp - one line per basic block -------------------===//
//
// TableStylePrinter: the header line, then per block one line written
// straight into an OutputBuffer.
//
//===----------------------------------------------------------------------===//

#include "TableStylePrinter.h"

using namespace llvm;

namespace bbmap {

namespace {

/// Metadata bits and their letters, in column order.
constexpr struct {
  uint32_t Bit;
  char Letter;
} FlagLetters[] = {{metadata::HasReturn, 'R'},
                   {metadata::HasTailCall, 'T'},
                   {metadata::IsEHPad, 'E'},
                   {metadata::CanFallThrough, 'F'},
                   {metadata::HasIndirectBranch, 'I'}};

/// Room for a line without its file and function names.
constexpr size_t MaxFixedLine = 4 * OutputBuffer::MaxNumberSize + 16;

} // namespace

TableStylePrinter::TableStylePrinter(raw_ostream &OS) : Out(OS) {
  Out.append("# file\tfunction\trange_base\tblock_id\tstart\tend\tflags\n");
}

void TableStylePrinter::printFileSummary(const FileSummary &S) {
  FileName = S.FileName;
}

void TableStylePrinter::endFile() { Out.flush(); }

void TableStylePrinter::endSection() { Out.flush(); }

FunctionPrinterFactory TableStylePrinter::forkFunctions(bool) const {
  return [FileName = FileName](TextPiece &Text) {
    return std::unique_ptr<FunctionPrinter>(
        new TableStylePrinter(Text, FileName));
  };
}

void TableStylePrinter::printFunction(const FunctionMap &F, StringRef Name) {
  if (Name.empty())
    Name = "<?>";
  for (const BlockRange &Range : F.Ranges)
    for (const BlockEntry &B : Range.Blocks)
      printBlock(Name, Range.BaseAddress, B);
}

void TableStylePrinter::printBlock(StringRef Name, uint64_t Base,
                                   const BlockEntry &B) {
  Out.append(FileName);
  Out.append("\t");
  Out.append(Name);
  char *P = Out.reserve(MaxFixedLine);
  *P++ = '\t';
  P = OutputBuffer::putHex(P, Base, /*UpperCase=*/false);
  *P++ = '\t';
  P = OutputBuffer::putDecimal(P, B.ID);
  *P++ = '\t';
  uint64_t Start = Base + B.Offset;
  P = OutputBuffer::putHex(P, Start, /*UpperCase=*/false);
  *P++ = '\t';
  P = OutputBuffer::putHex(P, Start + B.Size, /*UpperCase=*/false);
  *P++ = '\t';
  for (const auto &Flag : FlagLetters)
    *P++ = B.has(Flag.Bit) ? Flag.Letter : '-';
  *P++ = '\n';
  Out.commit(P);
}

} // namespace bbmap

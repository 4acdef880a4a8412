//===- MapPrinter.cpp - output style interface ----------------------------===//
//
// MapPrinter's one shared method: printing a whole decoded section.
//
//===----------------------------------------------------------------------===//

#include "MapPrinter.h"

namespace bbmap {

FunctionPrinter::~FunctionPrinter() = default;

void MapPrinter::printSection(const DecodedSection &Sec) {
  beginSection(Sec.Info);
  for (size_t I = 0; I < Sec.Functions.size(); ++I)
    printFunction(Sec.Functions[I], Sec.Names[I]);
  endSection();
}

} // namespace bbmap

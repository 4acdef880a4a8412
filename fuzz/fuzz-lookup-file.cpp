//===- fuzz-lookup-file.cpp - fuzz the look-up file parser ----------------===//
//
// libFuzzer target for parseLookupLines, bbmap-dump's chunked parallel
// parser of --lookup-file, against forEachAddressLine + parseLookupRequest,
// the line-by-line reading every other address file gets: both must give
// the same requests, or the same error. The first input byte picks the
// smallest chunk (so that small inputs are cut into many chunks), parsed on
// two threads; the rest is the file.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/Lookup.h"
#include <cstdlib>

using namespace llvm;
using namespace bbmap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return -1;
  size_t MinChunk = Data[0] % 32 + 1;
  StringRef Contents(reinterpret_cast<const char *>(Data + 1), Size - 1);

  std::vector<LookupRequest> Parallel;
  Error Chunked =
      parseLookupLines(Contents, "f", Parallel, /*Threads=*/2, MinChunk);
  std::vector<LookupRequest> Lines;
  Error ByLine =
      forEachAddressLine(Contents, "f", [&](StringRef Text) -> Error {
        Expected<LookupRequest> R = parseLookupRequest(Text);
        if (!R)
          return R.takeError();
        Lines.push_back(*R);
        return Error::success();
      });

  std::string ChunkedError = Chunked ? toString(std::move(Chunked)) : "";
  std::string ByLineError = ByLine ? toString(std::move(ByLine)) : "";
  if (ChunkedError != ByLineError)
    abort();
  if (!ChunkedError.empty())
    return 0;
  if (Parallel.size() != Lines.size())
    abort();
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Parallel[I].Address != Lines[I].Address ||
        Parallel[I].Side != Lines[I].Side)
      abort();
  return 0;
}

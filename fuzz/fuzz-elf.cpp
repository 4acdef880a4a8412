//===- fuzz-elf.cpp - fuzz bbmap-dump's whole ELF path --------------------===//
//
// libFuzzer target for what bbmap-dump does with one input file: the bytes
// go through forEachObject (object::createBinary, archive members,
// ELFMapReader) and every map section is streamed into each output style
// (relocations, decompression, symbol names, decoding, printing) to a null
// stream, diagnostics included, once on the calling thread and three times
// with each record printed by a task of its own; then the paths that
// --verify, --function and --lookup use decode, verify and index it; and
// --check-layout's reader of .eh_frame_hdr looks for FDEs it hides.
//
//===----------------------------------------------------------------------===//

#include "JSONStylePrinter.h"
#include "LLVMStylePrinter.h"
#include "SectionStreamer.h"
#include "TableStylePrinter.h"
#include "bbmap/Object/AddressIndex.h"
#include "bbmap/Object/FrameRanges.h"
#include "bbmap/Object/MapVerifier.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <memory>

using namespace llvm;
using namespace bbmap;

namespace {

void streamAll(const ELFMapReader &Reader, StringRef Name, MapPrinter &Printer,
               OrderedOutput &Out, Diagnostics &Diag) {
  FileSummary Summary = Reader.summary();
  Summary.FileName = Name.str();
  Printer.printFileSummary(Summary);
  // Every record a run of its own: the parallel path at its finest.
  StreamOptions Opts;
  Opts.Demangle = true;
  Opts.SpanBytes = 1;
  for (const MapSectionInfo &Info : Reader.mapSections())
    streamSection(Reader, Info, Name, Opts, Printer, Out, Diag);
  Printer.endFile();
  Out.finish();
}

/// Decodes every section whole, verifies it and indexes it for look-ups.
void checkWhole(const ELFMapReader &Reader, StringRef Name) {
  MapVerifier V(Name.str(), Reader.facts());
  std::vector<DecodedSection> Sections;
  for (const MapSectionInfo &Info : Reader.mapSections()) {
    Expected<DecodedSection> Sec = Reader.decode(Info);
    if (!Sec) {
      consumeError(Sec.takeError());
      V.countUndecodedSection();
      continue;
    }
    Expected<RelocationTargets> Targets = Reader.relocationTargets(Info);
    if (Targets)
      V.checkSection(*Sec, *Targets);
    else
      consumeError(Targets.takeError());
    Sections.push_back(std::move(*Sec));
  }
  V.finish([](StringRef) { return true; });
  Expected<AddressIndex> Index = AddressIndex::create(Sections);
  if (!Index)
    return consumeError(Index.takeError());
  for (const DecodedSection &Sec : Sections)
    for (const FunctionMap &F : Sec.Functions)
      for (LookupSide Side : {LookupSide::From, LookupSide::To})
        (void)Index->lookup(F.address(), Side);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  MemoryBufferRef Buffer(StringRef(reinterpret_cast<const char *>(Data), Size),
                         "input");
  // One printer on the calling thread, the others with two workers.
  OrderedOutput Serial(nulls(), 1), Parallel(nulls(), 2);
  std::pair<std::unique_ptr<MapPrinter>, OrderedOutput *> Printers[] = {
      {std::make_unique<LLVMStylePrinter>(Serial.stream(), /*PrettyPGO=*/false),
       &Serial},
      {std::make_unique<LLVMStylePrinter>(Parallel.stream(),
                                          /*PrettyPGO=*/true),
       &Parallel},
      {std::make_unique<JSONStylePrinter>(Parallel.stream(),
                                          /*PrettyJSON=*/true,
                                          /*PrettyPGO=*/true),
       &Parallel},
      {std::make_unique<TableStylePrinter>(Parallel.stream()), &Parallel}};
  Diagnostics Diag("bbmap-dump", nulls(), nulls());
  forEachObject(Buffer, Diag, [&](const ELFMapReader &Reader, StringRef Name) {
    for (auto &[Printer, Out] : Printers)
      streamAll(Reader, Name, *Printer, *Out, Diag);
    checkWhole(Reader, Name);
  });
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Buffer);
  if (!Obj)
    consumeError(Obj.takeError());
  else if (const auto *ELF = dyn_cast<object::ELFObjectFileBase>(Obj->get())) {
    WarningList Warnings;
    if (Expected<HiddenFrames> Hidden = hiddenFrames(*ELF, Warnings); !Hidden)
      consumeError(Hidden.takeError());
  }
  return 0;
}

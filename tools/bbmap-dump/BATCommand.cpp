//===- BATCommand.cpp - the --bat mode of bbmap-dump ----------------------===//
//
// One BATJob per input file: read the note, decode it, then each requested
// action. Text goes to stdout in the order dump, translations,
// verification; JSON is one object per file inside a top-level array.
//
//===----------------------------------------------------------------------===//

#include "BATCommand.h"
#include "BATPrinter.h"
#include "bbmap/Object/BATReader.h"
#include "bbmap/Object/BATVerifier.h"
#include "bbmap/Object/MappedBinary.h"
#include "bbmap/Support/Stopwatch.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace llvm::object;

namespace bbmap {

namespace {

class BATJob {
public:
  BATJob(const BATOptions &Opts, Diagnostics &Diag, const MappedBinary *Input,
         json::OStream *JSON)
      : Opts(Opts), Diag(Diag), Input(Input), JSON(JSON) {}

  /// Returns false on failure.
  bool run(StringRef File);

private:
  bool process(StringRef File, const ELFObjectFileBase &Obj);
  /// Results point into \p Translator.
  std::vector<TranslationResult> translateAll(const BATTranslator &Translator);
  void printText(const BATTable &T, ArrayRef<TranslationResult> Results,
                 ArrayRef<BATFinding> Findings, const BATVerifyStats &Stats);
  void printJSON(StringRef File, const BATNote &Note, const BATTable &T,
                 ArrayRef<TranslationResult> Results,
                 ArrayRef<BATFinding> Findings, const BATVerifyStats &Stats);

  const BATOptions &Opts;
  Diagnostics &Diag;
  const MappedBinary *Input;
  json::OStream *JSON;
};

bool BATJob::run(StringRef File) {
  Expected<OwningBinary<Binary>> Bin = createBinary(File);
  if (!Bin) {
    Diag.error(File, toString(Bin.takeError()));
    return false;
  }
  const auto *Obj = dyn_cast<ELFObjectFileBase>(Bin->getBinary());
  if (!Obj) {
    Diag.error(File, "not an ELF object file");
    return false;
  }
  return process(File, *Obj);
}

bool BATJob::process(StringRef File, const ELFObjectFileBase &Obj) {
  Expected<BATNote> Note = findBATNote(Obj);
  if (!Note) {
    Diag.error(File, toString(Note.takeError()));
    return false;
  }
  Stopwatch Decode;
  Expected<BATTable> T =
      decodeBAT(Note->Desc, Note->IsLittleEndian, Note->DescOffset);
  double DecodeTime = Decode.lap();
  if (!T) {
    Diag.error(File, Note->describe() + ": " + toString(T.takeError()));
    return false;
  }
  if (Opts.Stats)
    errs() << formatv("bbmap-dump: '{0}': decoded {1} bytes ({2}) in {3:f6} s "
                      "({4:f1} MB/s)\n",
                      File, Note->Desc.size(), formatName(T->Format),
                      DecodeTime, Note->Desc.size() / DecodeTime / 1e6);
  WarningList Warnings;
  std::vector<FunctionSymbol> Syms = functionSymbols(Obj, Warnings);
  Diag.warnings(File, Warnings);
  std::vector<BATFinding> Findings;
  BATVerifyStats Stats;
  if (Opts.Verify)
    Findings = verifyBAT(*T, Syms, &Stats);
  Stopwatch Indexing;
  BATTranslator Translator(*T, std::move(Syms));
  if (Opts.Stats && !Opts.Requests.empty())
    errs() << formatv("bbmap-dump: indexed the tables in {0:f6} s\n",
                      Indexing.lap());
  std::vector<TranslationResult> Results = translateAll(Translator);
  if (JSON)
    printJSON(File, *Note, *T, Results, Findings, Stats);
  else
    printText(*T, Results, Findings, Stats);
  if (Findings.empty())
    return true;
  Diag.error(File, Note->describe() + ": BAT verification found " +
                       Twine(Findings.size()) + " problems");
  return false;
}

std::vector<TranslationResult>
BATJob::translateAll(const BATTranslator &Translator) {
  std::vector<TranslationResult> Results;
  Stopwatch Translating;
  Results.reserve(Opts.Requests.size());
  for (const TranslateRequest &R : Opts.Requests) {
    TranslationResult &Res = Results.emplace_back();
    Res.Request = R;
    Res.Translation = Translator.translateAddress(R);
    if (Input && Res.Translation.Function)
      Res.Input = Input->resolve(
          Res.Translation.Function->Name, Res.Translation.InputOffset,
          R.IsBranchSource ? LookupSide::From : LookupSide::To);
  }
  double Time = Translating.lap();
  if (Opts.Stats && !Results.empty())
    errs() << formatv("bbmap-dump: translated {0} addresses in {1:f6} s "
                      "({2:f2} M/s)\n",
                      Results.size(), Time, Results.size() / Time / 1e6);
  return Results;
}

void BATJob::printText(const BATTable &T, ArrayRef<TranslationResult> Results,
                       ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats) {
  raw_ostream &OS = outs();
  if (Opts.Dump)
    printBATText(OS, T);
  if (!Results.empty()) {
    OS << "Translating addresses according to parsed BAT tables:\n";
    for (const TranslationResult &R : Results)
      printTranslationText(OS, R);
  }
  if (Opts.Verify)
    printFindingsText(OS, Findings, Stats);
  OS.flush();
}

void BATJob::printJSON(StringRef File, const BATNote &Note, const BATTable &T,
                       ArrayRef<TranslationResult> Results,
                       ArrayRef<BATFinding> Findings,
                       const BATVerifyStats &Stats) {
  json::OStream &J = *JSON;
  J.object([&] {
    J.attribute("File", File);
    J.attributeObject("Section", [&] {
      J.attribute("Index", Note.SectionIndex);
      J.attribute("Name", Note.SectionName);
    });
    J.attribute("DescriptorOffset", Note.DescOffset);
    J.attribute("DescriptorSize", Note.Desc.size());
    if (Opts.Dump)
      writeBATJSON(J, T);
    if (!Results.empty())
      J.attributeArray("Translations", [&] {
        for (const TranslationResult &R : Results)
          writeTranslationJSON(J, R);
      });
    if (Opts.Verify)
      writeFindingsJSON(J, Findings, Stats);
  });
}

} // namespace

bool runBAT(ArrayRef<std::string> Files, const BATOptions &Opts,
            Diagnostics &Diag) {
  std::unique_ptr<MappedBinary> Input;
  if (!Opts.InputBinary.empty()) {
    Expected<std::unique_ptr<MappedBinary>> In = MappedBinary::open(
        Opts.InputBinary, MappedBinary::MapRequirement::Required, Opts.Threads);
    if (!In) {
      Diag.error(Opts.InputBinary, "input binary: " + toString(In.takeError()));
      return false;
    }
    Input = std::move(*In);
    Diag.warnings(Opts.InputBinary, Input->warnings());
  }
  std::unique_ptr<json::OStream> JSON;
  if (Opts.JSON) {
    JSON = std::make_unique<json::OStream>(outs(), Opts.PrettyJSON ? 2 : 0);
    JSON->arrayBegin();
  }
  bool OK = true;
  BATJob Job(Opts, Diag, Input.get(), JSON.get());
  for (const std::string &File : Files)
    OK &= Job.run(File);
  if (JSON) {
    JSON->arrayEnd();
    outs() << "\n";
  }
  outs().flush();
  return OK;
}

} // namespace bbmap

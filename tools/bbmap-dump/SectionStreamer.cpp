//===- SectionStreamer.cpp - stream one map section into a style ----------===//
//
// Two passes over a section: the first checks every record (llvm-readobj
// prints a section with a malformed record as an empty list), the second
// prints; no decoded record is kept. With one thread the printer prints
// every record itself; with more, each run of records is printed by a
// printer forked from it into a piece of text that OrderedOutput writes in
// order, and the functions without a name are gathered per run and warned
// about once the section is written.
//
//===----------------------------------------------------------------------===//

#include "SectionStreamer.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace bbmap {

namespace {

/// Prints the records of \p Span with \p Printer, collecting the unnamed.
Error printRecords(const MapSectionReader &Sec, RecordSpan Span, bool Demangle,
                   FunctionPrinter &Printer,
                   std::vector<UnnamedFunction> &Unnamed) {
  return Sec.forEachFunction(
      [&](const FunctionMap &F, StringRef Name) {
        std::string Demangled =
            Demangle && !Name.empty() ? llvm::demangle(Name) : std::string();
        Printer.printFunction(F, Demangled.empty() ? Name : Demangled);
        if (Name.empty())
          Unnamed.push_back({F.SectionOffset, F.address()});
        return Error::success();
      },
      Span);
}

/// A section whose runs of records are printed in parallel: what the tasks
/// share with the warning printed after them.
struct ParallelSection {
  std::unique_ptr<MapSectionReader> Sec;
  /// Per run.
  std::vector<std::vector<UnnamedFunction>> Unnamed;
};

/// Submits one task per run of \p Spans; returns the unnamed functions of
/// every run, filled in once the tasks have run.
std::shared_ptr<ParallelSection>
printInParallel(std::unique_ptr<MapSectionReader> Sec,
                ArrayRef<RecordSpan> Spans, bool Demangle,
                const MapPrinter &Printer, OrderedOutput &Out) {
  auto Job = std::make_shared<ParallelSection>();
  Job->Sec = std::move(Sec);
  Job->Unnamed.resize(Spans.size());
  for (size_t I = 0; I < Spans.size(); ++I) {
    // Forked here, on the thread that owns Printer.
    FunctionPrinterFactory Fork = Printer.forkFunctions(/*First=*/I == 0);
    Out.submit([=, Span = Spans[I]](TextPiece &Text) {
      std::unique_ptr<FunctionPrinter> P = Fork(Text);
      // The section has been checked: decoding cannot fail.
      cantFail(printRecords(*Job->Sec, Span, Demangle, *P, Job->Unnamed[I]));
    });
  }
  return Job;
}

} // namespace

void streamSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                   StringRef File, const StreamOptions &Opts,
                   MapPrinter &Printer, OrderedOutput &Out, Diagnostics &Diag) {
  Printer.beginSection(Info);
  Expected<std::unique_ptr<MapSectionReader>> Sec = Reader.open(Info);
  std::vector<RecordSpan> Spans;
  Error E = Sec.takeError();
  if (!E) {
    Expected<std::vector<RecordSpan>> Split =
        (*Sec)->split(Out.threads() == 1 ? UINT64_MAX : Opts.SpanBytes);
    if (Split)
      Spans = std::move(*Split);
    else
      E = Split.takeError();
  }
  std::vector<UnnamedFunction> Unnamed;
  std::shared_ptr<ParallelSection> Job;
  if (!E && Spans.size() > 1) {
    Printer.flush();
    Job = printInParallel(std::move(*Sec), Spans, Opts.Demangle, Printer, Out);
    Printer.recordsPrintedElsewhere();
  } else if (!E) {
    cantFail(printRecords(**Sec, {}, Opts.Demangle, Printer, Unnamed));
  }
  Printer.endSection();
  Printer.flush();
  std::string Message = E ? describe(Info) + ": " + toString(std::move(E)) : "";
  Out.then([&Diag, File = File.str(), Info, Message, Job,
            Unnamed = std::move(Unnamed)]() mutable {
    if (!Message.empty())
      Diag.error(File, Message);
    if (Job)
      for (std::vector<UnnamedFunction> &Run : Job->Unnamed)
        llvm::append_range(Unnamed, Run);
    warnUnnamed(Diag, File, Info, Unnamed);
  });
}

} // namespace bbmap

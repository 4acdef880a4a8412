//===- SectionStreamer.cpp - stream one map section into a style ----------===//
//
// Two passes over a section: the first checks every record (llvm-readobj
// prints a section with a malformed record as an empty list), the second
// prints; no decoded record is kept.
//
//===----------------------------------------------------------------------===//

#include "SectionStreamer.h"
#include "bbmap/Object/ObjectVisitor.h"
#include "llvm/Demangle/Demangle.h"

using namespace llvm;

namespace bbmap {

void streamSection(const ELFMapReader &Reader, const MapSectionInfo &Info,
                   StringRef File, bool Demangle, MapPrinter &Printer,
                   Diagnostics &Diag) {
  Printer.beginSection(Info);
  Error E = Reader.check(Info);
  std::vector<UnnamedFunction> Unnamed;
  if (!E)
    E = Reader.forEachFunction(Info, [&](const FunctionMap &F, StringRef Name) {
      std::string Demangled =
          Demangle && !Name.empty() ? llvm::demangle(Name) : std::string();
      Printer.printFunction(F, Demangled.empty() ? Name : Demangled);
      if (Name.empty())
        Unnamed.push_back({F.SectionOffset, F.address()});
      return Error::success();
    });
  Printer.endSection();
  if (E)
    Diag.error(File, describe(Info) + ": " + toString(std::move(E)));
  warnUnnamed(Diag, File, Info, Unnamed);
}
} // namespace bbmap

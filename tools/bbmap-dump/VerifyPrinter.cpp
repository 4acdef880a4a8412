//===- VerifyPrinter.cpp - --verify reports as text or JSON ---------------===//
//
// One line per finding and a summary line, or a JSON array of per-file
// objects.
//
//===----------------------------------------------------------------------===//

#include "VerifyPrinter.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace bbmap {

VerifyReportPrinter::~VerifyReportPrinter() = default;

namespace {

StringRef severityName(Severity Sev) {
  return Sev == Severity::Error ? "error" : "warning";
}

std::string displayName(StringRef Name, bool Demangle) {
  if (Name.empty())
    return "<?>";
  return Demangle ? llvm::demangle(Name) : Name.str();
}

class TextReportPrinter : public VerifyReportPrinter {
public:
  TextReportPrinter(raw_ostream &OS, bool Demangle)
      : OS(OS), Demangle(Demangle) {}

  void printFile(const VerifyReport &R) override {
    for (const Finding &F : R.Findings) {
      OS << severityName(F.Sev) << ": " << R.File << ": section ["
         << F.SectionIndex << "] " << F.SectionName << ": ";
      if (F.RecordOffset)
        OS << "record " << hex(*F.RecordOffset) << " ("
           << displayName(F.Function, Demangle) << "): ";
      OS << F.Message << "\n";
    }
    for (const UncoveredFunction &U : R.Uncovered)
      OS << "uncovered: " << R.File << ": " << displayName(U.Name, Demangle)
         << " at " << hex(U.Address) << " (size " << hex(U.Size)
         << ") in section [" << U.SectionIndex << "] " << U.SectionName << "\n";
  }

  void finish(const VerifySummary &S) override {
    OS << "summary: " << S.Files << " files, " << S.Functions << " functions, "
       << S.Blocks << " blocks checked; " << S.Errors << " errors, "
       << S.Warnings << " warnings, " << S.Uncovered
       << " uncovered functions\n";
  }

private:
  raw_ostream &OS;
  bool Demangle;
};

class JSONReportPrinter : public VerifyReportPrinter {
public:
  JSONReportPrinter(raw_ostream &OS, bool Pretty, bool Demangle)
      : OS(OS), J(OS, Pretty ? 2 : 0), Demangle(Demangle) {
    J.arrayBegin();
  }

  void printFile(const VerifyReport &R) override {
    J.object([&] {
      J.attribute("File", R.File);
      J.attributeObject("Verify", [&] {
        J.attribute("Functions", R.Functions);
        J.attribute("Blocks", R.Blocks);
        J.attribute("Errors", R.errors());
        J.attribute("Warnings", R.count(Severity::Warning));
        J.attributeArray("Findings", [&] {
          for (const Finding &F : R.Findings)
            printFinding(F);
        });
        J.attributeArray("Uncovered", [&] {
          for (const UncoveredFunction &U : R.Uncovered)
            printUncovered(U);
        });
      });
    });
  }

  void finish(const VerifySummary &) override {
    J.arrayEnd();
    J.flush();
    OS << "\n";
  }

private:
  void printFinding(const Finding &F) {
    J.object([&] {
      J.attribute("Severity", severityName(F.Sev));
      J.attribute("Section", F.SectionIndex);
      J.attribute("SectionName", F.SectionName);
      if (F.RecordOffset) {
        J.attribute("RecordOffset", *F.RecordOffset);
        J.attribute("Function", displayName(F.Function, Demangle));
      }
      J.attribute("Message", F.Message);
    });
  }

  void printUncovered(const UncoveredFunction &U) {
    J.object([&] {
      J.attribute("Function", displayName(U.Name, Demangle));
      J.attribute("Address", U.Address);
      J.attribute("Size", U.Size);
      J.attribute("Section", U.SectionIndex);
      J.attribute("SectionName", U.SectionName);
    });
  }

  raw_ostream &OS;
  json::OStream J;
  bool Demangle;
};

} // namespace

std::unique_ptr<VerifyReportPrinter> createTextReportPrinter(raw_ostream &OS,
                                                             bool Demangle) {
  return std::make_unique<TextReportPrinter>(OS, Demangle);
}

std::unique_ptr<VerifyReportPrinter>
createJSONReportPrinter(raw_ostream &OS, bool Pretty, bool Demangle) {
  return std::make_unique<JSONReportPrinter>(OS, Pretty, Demangle);
}

} // namespace bbmap

//===- plugin/MapHandler.h - handler emitting the map ----------*- C++ -*-===//
//
// An AsmPrinterHandler attached to every AsmPrinter the host creates. At the
// start of each function it marks the labels the map needs (block begins,
// block ends, call ends) on the MachineFunction, which changes only which
// labels are printed, never the code; at the end it writes the record.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_PLUGIN_MAPHANDLER_H
#define BBMAP_PLUGIN_MAPHANDLER_H

#include "MapEmitter.h"
#include "Options.h"
#include "llvm/CodeGen/AsmPrinterHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/MC/MCSymbol.h"
#include <optional>
#include <string>

namespace bbmap {

class MapHandler final : public llvm::AsmPrinterHandler {
public:
  /// \p Opts is the resolved configuration, or the error to report when the
  /// first module starts.
  MapHandler(llvm::AsmPrinter &AP, llvm::Expected<MapOptions> Opts);

  void beginModule(llvm::Module *M) override;
  void endModule() override {}
  void beginFunction(const llvm::MachineFunction *MF) override;
  void endFunction(const llvm::MachineFunction *MF) override;

private:
  void report(llvm::LLVMContext &Ctx, llvm::DiagnosticSeverity Severity,
              const llvm::Twine &Msg);
  std::optional<FunctionMap> collect(llvm::MachineFunction &MF);
  uint16_t featuresOf(const llvm::MachineFunction &MF,
                      unsigned NumRanges) const;
  const llvm::MCSymbol *functionBeginLabel();
  void placeLabels(llvm::MachineFunction &MF, FunctionMap &F);
  void addPGOAnalysis(llvm::MachineFunction &MF, FunctionMap &F);

  llvm::AsmPrinter &AP;
  MapOptions Opts;
  /// A configuration problem or an unsupported target, reported once.
  std::string PendingDiagnostic;
  llvm::DiagnosticSeverity PendingSeverity = llvm::DS_Warning;
  bool Active = true;
  std::optional<FunctionMap> Current;
};

} // namespace bbmap

#endif // BBMAP_PLUGIN_MAPHANDLER_H

//===- plugin/Plugin.cpp - bbmap plugin entry points ----------------------===//
//
// When the host loads bbmap-plugin.so (clang -fpass-plugin, llc -load or
// --load-pass-plugin, lld --load-pass-plugin), every target's AsmPrinter
// constructor in the TargetRegistry is replaced by a wrapper that calls the
// original and attaches a MapHandler. Targets are registered before plugins
// load in all three hosts, so the wrap happens once, at load time; afterwards
// the table of original constructors is only read, which keeps parallel
// ThinLTO backends safe.
//
//===----------------------------------------------------------------------===//

#include "MapHandler.h"
#include "Options.h"
#include "Targets.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

namespace bbmap {
namespace {

/// Copies of the targets as registered, keyed by the registered Target. A
/// copy keeps the original AsmPrinter constructor, which has no getter.
DenseMap<const Target *, Target> &originalTargets() {
  static DenseMap<const Target *, Target> Originals;
  return Originals;
}

/// Makes the compiler number its machine blocks as it does for the in-tree
/// map, so that the map's IDs are the ones a basic-block-sections profile
/// names. MachineFunction gives a block its ID when it creates it if the
/// map or a sections list is on; the AsmPrinter is created when the pass
/// pipeline is built, before any block exists and after the pipeline's
/// shape was chosen, so the list mode set here adds no pass (no profile
/// reader, no sections) and changes no code: only the IDs are assigned.
/// Targets the plugin does not cover are left as they are.
void requestBlockIDs(TargetMachine &TM) {
  if (!uncoveredTarget(TM.getTargetTriple()) &&
      TM.getBBSectionsType() == BasicBlockSection::None &&
      !TM.Options.BBAddrMap)
    TM.Options.BBSections = BasicBlockSection::List;
}

AsmPrinter *createPrinterWithMap(TargetMachine &TM,
                                 std::unique_ptr<MCStreamer> &&Streamer) {
  auto It = originalTargets().find(&TM.getTarget());
  if (It == originalTargets().end())
    return nullptr;
  AsmPrinter *AP = It->second.createAsmPrinter(TM, std::move(Streamer));
  if (!AP)
    return AP;
  Expected<MapOptions> Options = resolveOptions();
  if (Options && Options->Enabled)
    requestBlockIDs(TM);
  AP->addAsmPrinterHandler(
      std::make_unique<MapHandler>(*AP, std::move(Options)));
  return AP;
}

/// Wraps every registered target once per process.
void wrapAsmPrinters() {
  if (!registerOptions() || !originalTargets().empty())
    return;
  for (const Target &T : TargetRegistry::targets()) {
    originalTargets()[&T] = T;
    TargetRegistry::RegisterAsmPrinter(const_cast<Target &>(T),
                                       &createPrinterWithMap);
  }
}

const bool Wrapped = (wrapAsmPrinters(), true);

} // namespace
} // namespace bbmap

extern "C" LLVM_ATTRIBUTE_WEAK
    LLVM_ATTRIBUTE_VISIBILITY_DEFAULT PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  // Nothing to add to the pass pipeline: all work happens in the AsmPrinter.
  return {LLVM_PLUGIN_API_VERSION, "bbmap", BBMAP_VERSION,
          [](PassBuilder &) {}};
}

//===- PerfDataCommand.cpp - the --perf-data mode of bbmap-dump -----------===//
//
// Reads the records of a perf.data file with PerfFile, in perf's delivery
// order (deliverInOrder), and prints samples, MMAP/MMAP2 and
// COMM/FORK/EXIT records in perf script's layout (builtin-script.c and
// util/event.c of perf 6.1). Output is buffered and written as it grows;
// an error stops the file after what was printed before it, as perf does.
//
//===----------------------------------------------------------------------===//

#include "PerfDataCommand.h"
#include "bbmap/Perf/EventName.h"
#include "bbmap/Perf/EventQueue.h"
#include "bbmap/Perf/PerfFile.h"
#include "bbmap/Perf/SampleDelivery.h"
#include "bbmap/Support/ByteReader.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cinttypes>

using namespace llvm;
using namespace bbmap::perf;

namespace bbmap {

namespace {

/// perf 6.1's branch type names (util/branch.c), by type and by new_type.
const char *const BranchTypeNames[] = {
    "N/A", "COND",    "UNCOND", "IND",       "CALL",     "IND_CALL",
    "RET", "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET",
    "IRQ", "SERROR",  "NO_TX",  ""};
const char *const BranchNewTypeNames[] = {
    "FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1",
    "ARCH_2",     "ARCH_3",     "ARCH_4",     "ARCH_5"};
constexpr unsigned BranchTypeExtendABI = 15;

/// One file's printer: what perf script keeps per session.
class PerfScriptPrinter {
public:
  PerfScriptPrinter(PerfFile &File, const PerfDataPrintOptions &Opts,
                    raw_ostream &OS)
      : File(File), Opts(Opts), OS(OS), Delivery(File),
        PipeSwapQuirk(File.isPipe() && !File.order().Little) {}

  Error print() {
    return deliverInOrder(File, [&](const Record &R) { return deliver(R); });
  }

private:
  Error deliver(const Record &R);
  void printStart(const Event &E, int32_t PID);
  void printSample(const Sample &S);
  void printBranches(const Sample &S);
  const std::string &nameOf(const Event &E);

  PerfFile &File;
  const PerfDataPrintOptions &Opts;
  raw_ostream &OS;
  SampleDelivery Delivery;
  SmallVector<const Event *, 4> DeliveredAs;
  /// perf 6.1 reads a pipe of the other byte order with its events'
  /// needs_swap unset: each u32 pair (pid/tid) comes out in the wrong
  /// halves and branch flags keep their big-endian places.
  bool PipeSwapQuirk;
  /// perf's name_width: the longest event name, taken at the first sample.
  size_t NameWidth = 0;
  DenseMap<const Event *, std::string> Names;
};

const std::string &PerfScriptPrinter::nameOf(const Event &E) {
  auto [It, New] = Names.try_emplace(&E);
  if (New)
    It->second = eventName(E);
  return It->second;
}

/// perf_sample__fprintf_start with the pid field alone: printed when the
/// event's samples carry TID (perf drops the field otherwise).
void PerfScriptPrinter::printStart(const Event &E, int32_t PID) {
  if (E.Attr.has(sample::TID))
    OS << format_decimal(PID, 5) << ' ';
}

void PerfScriptPrinter::printSample(const Sample &S) {
  const Event &E = *S.Ev;
  printStart(E, PipeSwapQuirk ? S.TID : S.PID);
  if (!NameWidth)
    for (const std::unique_ptr<Event> &Ev : File.events())
      NameWidth = std::max(NameWidth, nameOf(*Ev).size());
  OS << right_justify(nameOf(E), NameWidth) << ": ";
  if (Opts.BranchStack) {
    if (E.Attr.has(sample::BranchStack))
      printBranches(S);
  } else if (E.Attr.has(sample::IP)) {
    // "%16lx": right-aligned in 16 columns.
    unsigned Digits = std::max(1, (64 - countl_zero(S.IP) + 3) / 4);
    OS.indent(1 + (Digits < 16 ? 16 - Digits : 0));
    OS.write_hex(S.IP);
  }
  OS << '\n';
}

/// perf_sample__fprintf_brstack and print_bstack_flags.
void PerfScriptPrinter::printBranches(const Sample &S) {
  for (uint64_t I = 0; I < S.BranchCount; ++I) {
    BranchEntry B = S.branch(I);
    if (PipeSwapQuirk)
      B.Flags = File.order().u64(S.Branches + 24 * I + 16);
    BranchFlags F = B.flags();
    char Pred = !(F.Mispred || F.Predicted) ? '-' : F.Predicted ? 'P' : 'M';
    const char *Type = F.Type == 0 ? ""
                       : F.Type == BranchTypeExtendABI
                           ? (F.NewType < std::size(BranchNewTypeNames)
                                  ? BranchNewTypeNames[F.NewType]
                                  : "(null)")
                           : BranchTypeNames[F.Type];
    OS << " 0x";
    OS.write_hex(B.From);
    OS << "/0x";
    OS.write_hex(B.To);
    OS << '/' << Pred << '/' << (F.InTx ? 'X' : '-') << '/'
       << (F.Abort ? 'A' : '-') << '/' << F.Cycles << '/' << Type << ' ';
  }
}

Error PerfScriptPrinter::deliver(const Record &R) {
  const Event *E = File.eventOf(R);
  if (R.Type == record::Sample) {
    if (!E)
      return decodeError(R.Offset, "sample names an event ID no attr has");
    Sample S;
    if (Error Err = File.decodeSample(R, *E, S))
      return Err;
    Delivery.deliver(S, DeliveredAs);
    for (const Event *As : DeliveredAs) {
      S.Ev = As;
      printSample(S);
    }
    return Error::success();
  }
  bool MMap = R.Type == record::MMap || R.Type == record::MMap2;
  bool Task = R.Type == record::Comm || R.Type == record::Fork ||
              R.Type == record::Exit;
  if (!MMap && !Task)
    return Error::success();
  SampleID ID;
  if (E)
    if (Error Err = File.decodeSampleID(R, *E, ID))
      return Err;
  // perf script takes the record's own pid where there is no trailer.
  auto Start = [&](int32_t PID) {
    if (E)
      printStart(*E, !E->Attr.sampleIDAll() ? PID
                     : PipeSwapQuirk        ? ID.TID
                                            : ID.PID);
  };
  if (MMap) {
    MMapEvent M;
    if (Error Err = File.decodeMMap(R, M))
      return Err;
    Start(M.PID);
    OS << (M.Version2 ? "PERF_RECORD_MMAP2" : "PERF_RECORD_MMAP")
       << format(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, M.PID,
                 M.TID, M.Start, M.Length, M.PageOffset);
    if (!M.Version2) {
      OS << "]: " << (M.Executable ? 'x' : 'r') << ' ' << M.FileName << '\n';
      return Error::success();
    }
    if (M.HasBuildID)
      OS << " <" << toHex(M.BuildID, /*LowerCase=*/true) << '>';
    else
      OS << format(" %02x:%02x %" PRIu64 " %" PRIu64, M.Major, M.Minor, M.Inode,
                   M.InodeGeneration);
    // perf 6.1 does not swap prot and flags of a file of the other byte
    // order.
    uint32_t Prot = M.Prot, Flags = M.MapFlags;
    if (!File.order().Little) {
      Prot = byteswap(Prot);
      Flags = byteswap(Flags);
    }
    OS << "]: " << (Prot & 1 ? 'r' : '-') << (Prot & 2 ? 'w' : '-')
       << (Prot & 4 ? 'x' : '-') << (Flags & 1 ? 's' : 'p') << ' ' << M.FileName
       << '\n';
    return Error::success();
  }
  if (R.Type == record::Comm) {
    CommEvent C;
    if (Error Err = File.decodeComm(R, C))
      return Err;
    Start(C.PID);
    OS << "PERF_RECORD_COMM" << (C.Exec ? " exec" : "") << ": " << C.Comm
       << format(":%d/%d\n", C.PID, C.TID);
    return Error::success();
  }
  TaskEvent T;
  if (Error Err = File.decodeTask(R, T))
    return Err;
  Start(T.PID);
  OS << (R.Type == record::Fork ? "PERF_RECORD_FORK" : "PERF_RECORD_EXIT")
     << format("(%d:%d):(%d:%d)\n", T.PID, T.TID, T.PPID, T.PTID);
  return Error::success();
}

} // namespace

Error printPerfScript(MemoryBufferRef Buffer, const PerfDataPrintOptions &Opts,
                      raw_ostream &OS, bool Mapped) {
  Expected<std::unique_ptr<PerfFile>> File = PerfFile::create(Buffer);
  if (!File)
    return File.takeError();
  (*File)->setMapped(Mapped);
  return PerfScriptPrinter(**File, Opts, OS).print();
}

int runPerfData(ArrayRef<std::string> Files, const PerfDataPrintOptions &Opts,
                Diagnostics &Diag) {
  for (const std::string &Path : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      Diag.error(Path, Buffer.getError().message());
      continue;
    }
    bool Mapped = (*Buffer)->getBufferKind() == MemoryBuffer::MemoryBuffer_MMap;
    if (Error E =
            printPerfScript((*Buffer)->getMemBufferRef(), Opts, outs(), Mapped))
      Diag.error(Path, toString(std::move(E)));
  }
  outs().flush();
  return Diag.hadError() ? 1 : 0;
}

} // namespace bbmap

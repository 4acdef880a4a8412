//===- InstructionDecoder.h - one instruction at a time ---------*- C++ -*-===//
//
// Decodes the instruction at an address of a linked file's executable
// sections with LLVM's MC disassembler and tells what kind of control flow
// it is: what profile mapping needs to tell a call from a jump, a return
// from a branch, and where a block's fall-through ends. The same interface
// serves x86-64 and AArch64: the kinds come from the target's
// MCInstrAnalysis (AArch64: bl/blr calls, ret, b.cond, cbz/cbnz and
// tbz/tbnz conditional branches, b, br), no-ops from the target's own
// encoding of them (x86 NOOP*, AArch64 HINT #0).
//
// Threading: every const member may be called concurrently; decode() gives each
// calling thread a disassembler of its own.
//
//===----------------------------------------------------------------------===//

#ifndef BBMAP_OBJECT_INSTRUCTIONDECODER_H
#define BBMAP_OBJECT_INSTRUCTIONDECODER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace llvm {
class MCContext;
class MCDisassembler;
class MCInst;
class MCInstPrinter;
class MCInstrAnalysis;
class MCInstrInfo;
class MCRegisterInfo;
class MCAsmInfo;
class MCSubtargetInfo;
class Target;
} // namespace llvm

namespace bbmap {

/// The control flow of an instruction.
enum class InstrKind : uint8_t {
  Other,
  Nop,
  Call,
  IndirectCall,
  Return,
  CondBranch,
  UncondBranch,
  IndirectBranch,
  Trap,
};

struct Instruction {
  uint64_t Address = 0;
  uint8_t Size = 0;
  InstrKind Kind = InstrKind::Other;
  /// The direct branch or call target, when the instruction names one.
  std::optional<uint64_t> Target;

  uint64_t end() const { return Address + Size; }
  bool isCall() const {
    return Kind == InstrKind::Call || Kind == InstrKind::IndirectCall;
  }
  /// Control never falls through to the next instruction.
  bool isBarrier() const {
    return Kind == InstrKind::Return || Kind == InstrKind::UncondBranch ||
           Kind == InstrKind::IndirectBranch || Kind == InstrKind::Trap;
  }
  /// A branch of any kind, calls and returns included: what ARM SPE's
  /// branch filter keeps.
  bool isBranch() const {
    return Kind != InstrKind::Other && Kind != InstrKind::Nop &&
           Kind != InstrKind::Trap;
  }
  /// Ends a straight-line run: any branch, return or trap (not a call).
  bool endsBlock() const {
    return isBarrier() || Kind == InstrKind::CondBranch;
  }
};

class InstructionDecoder {
public:
  ~InstructionDecoder();

  /// Sets up the disassembler for \p Obj's target; \p Obj must outlive the
  /// decoder.
  static llvm::Expected<std::unique_ptr<InstructionDecoder>>
  create(const llvm::object::ELFObjectFileBase &Obj);

  /// The instruction at \p Address; none when the address is outside every
  /// executable section or its bytes do not decode.
  std::optional<Instruction> decode(uint64_t Address) const;
  /// As decode(\p Address), also giving the MC instruction in \p Inst.
  std::optional<Instruction> decode(uint64_t Address, llvm::MCInst &Inst) const;

  /// \p Inst's operand \p OpIndex is PC-relative (MCOI::OPERAND_PCREL): a
  /// branch target, an AArch64 adr/adrp label or literal.
  bool isPCRelOperand(const llvm::MCInst &Inst, unsigned OpIndex) const;
  /// The file is AArch64 code.
  bool isAArch64() const { return AArch64; }

  /// LLVM's name of \p Opcode (MCInstPrinter::getOpcodeName).
  llvm::StringRef opcodeName(unsigned Opcode) const;
  /// The mnemonic the target's default assembly syntax prints for \p Inst,
  /// as MCInstPrinter::getMnemonic gives it.
  std::string mnemonic(const llvm::MCInst &Inst) const;

  const llvm::MCInstrInfo &instrInfo() const { return *MII; }
  const llvm::MCRegisterInfo &registerInfo() const { return *MRI; }
  const llvm::MCInstrAnalysis &analysis() const { return *Analysis; }

  /// The subtarget, for LLVM Object calls that need one.
  const llvm::MCSubtargetInfo &subtargetInfo() const { return *STI; }

  /// The disassembler decode() uses on the calling thread, made on its
  /// first use there. An MCDisassembler is not safe to share: x86's and
  /// AArch64's getInstruction store the comment stream in it on every call.
  const llvm::MCDisassembler &disassembler() const;

private:
  struct CodeSection {
    uint64_t Address;
    llvm::ArrayRef<uint8_t> Bytes;
  };

  InstructionDecoder() = default;
  /// Fills NopOpcodes and HintOpcode.
  void findNopOpcodes();
  InstrKind classify(const llvm::MCInst &Inst) const;

  std::vector<CodeSection> Sections;
  bool AArch64 = false;
  /// The no-op opcodes (their names, looked up once; see classify), and
  /// AArch64's HINT, a no-op with immediate 0.
  llvm::BitVector NopOpcodes;
  std::optional<unsigned> HintOpcode;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCAsmInfo> MAI;
  std::unique_ptr<llvm::MCSubtargetInfo> STI;
  std::unique_ptr<llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCContext> Ctx;
  const llvm::Target *TheTarget = nullptr;
  /// Tells this decoder from every other one in a thread's cache of its
  /// last disassembler (an address could be reused).
  uint64_t ID = 0;
  /// The disassembler of each thread that decoded; a thread that ends
  /// leaves its own to the next thread of the same id.
  mutable std::mutex DisassemblersMutex;
  mutable std::unordered_map<std::thread::id,
                             std::unique_ptr<llvm::MCDisassembler>>
      Disassemblers;
  std::unique_ptr<llvm::MCInstrAnalysis> Analysis;
  std::unique_ptr<llvm::MCInstPrinter> Printer;
};

} // namespace bbmap

#endif // BBMAP_OBJECT_INSTRUCTIONDECODER_H

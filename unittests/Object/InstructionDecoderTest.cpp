//===- InstructionDecoderTest.cpp - one decoder, several threads ----------===//
//
// decode() is const and one decoder is shared by the worker threads of
// block charging, inference and BOLT's records, while an MCDisassembler is
// not safe to share (x86's and AArch64's getInstruction store into it). The
// threads here decode at the same time, each the whole of a small x86-64
// and AArch64 text, and must get the right instructions from disassemblers
// of their own; one thread switching between two decoders must get each
// decoder's own.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Object/InstructionDecoder.h"
#include "TestUtil.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ObjectYAML/yaml2obj.h"
#include "gtest/gtest.h"
#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace bbmap;
using namespace llvm;

namespace {

/// At 0x1000: call 0x2000; nop; jne 0x100a; jmp *%rax; ret.
constexpr const char *X86Text = "e8fb0f0000907502ffe0c3";
/// At 0x1000: bl 0x2000; nop; ret.
constexpr const char *AArch64Text = "000400941f2003d5c0035fd6";

struct Want {
  uint64_t Address;
  InstrKind Kind;
  std::optional<uint64_t> Target;
};

const std::vector<Want> X86Code = {
    {0x1000, InstrKind::Call, 0x2000},
    {0x1005, InstrKind::Nop, std::nullopt},
    {0x1006, InstrKind::CondBranch, 0x100a},
    {0x1008, InstrKind::IndirectBranch, std::nullopt},
    {0x100a, InstrKind::Return, std::nullopt},
};

const std::vector<Want> AArch64Code = {
    {0x1000, InstrKind::Call, 0x2000},
    {0x1004, InstrKind::Nop, std::nullopt},
    {0x1008, InstrKind::Return, std::nullopt},
};

/// A linked ELF file whose .text at 0x1000 holds \p Hex.
std::unique_ptr<object::ObjectFile>
makeObject(SmallVectorImpl<char> &Storage, StringRef Machine, StringRef Hex) {
  std::string Yaml = ("--- !ELF\n"
                      "FileHeader: { Class: ELFCLASS64, Data: ELFDATA2LSB, "
                      "Type: ET_EXEC, Machine: " +
                      Machine +
                      " }\n"
                      "Sections:\n"
                      "  - Name: .text\n"
                      "    Type: SHT_PROGBITS\n"
                      "    Flags: [ SHF_ALLOC, SHF_EXECINSTR ]\n"
                      "    Address: 0x1000\n"
                      "    Content: \"" +
                      Hex + "\"\n")
                         .str();
  return yaml::yaml2ObjectFile(Storage, Yaml, [](const Twine &Msg) {
    ADD_FAILURE() << "yaml2obj: " << Msg.str();
  });
}

/// How many of \p Code \p D decodes otherwise than expected.
unsigned countWrong(const InstructionDecoder &D, ArrayRef<Want> Code) {
  unsigned Wrong = 0;
  for (const Want &E : Code) {
    std::optional<Instruction> I = D.decode(E.Address);
    Wrong += !I || I->Kind != E.Kind || I->Target != E.Target;
  }
  return Wrong;
}

class InstructionDecoderTest : public ::testing::Test {
protected:
  void SetUp() override {
    X86Object = makeObject(X86Storage, "EM_X86_64", X86Text);
    AArch64Object = makeObject(AArch64Storage, "EM_AARCH64", AArch64Text);
    ASSERT_TRUE(X86Object && AArch64Object);
  }

  std::unique_ptr<InstructionDecoder> decoderFor(const object::ObjectFile &O) {
    Expected<std::unique_ptr<InstructionDecoder>> D =
        InstructionDecoder::create(cast<object::ELFObjectFileBase>(O));
    if (!D) {
      ADD_FAILURE() << toString(D.takeError());
      return nullptr;
    }
    return std::move(*D);
  }

  SmallString<0> X86Storage, AArch64Storage;
  std::unique_ptr<object::ObjectFile> X86Object, AArch64Object;
};

TEST_F(InstructionDecoderTest, DecodesTheTestCode) {
  std::unique_ptr<InstructionDecoder> X86 = decoderFor(*X86Object);
  std::unique_ptr<InstructionDecoder> AArch64 = decoderFor(*AArch64Object);
  ASSERT_TRUE(X86 && AArch64);
  EXPECT_EQ(countWrong(*X86, X86Code), 0u);
  EXPECT_EQ(countWrong(*AArch64, AArch64Code), 0u);
}

/// Threads that decode at the same time: each uses one disassembler, none
/// another thread's, and gets every instruction right.
void decodeOnThreads(const InstructionDecoder &D, ArrayRef<Want> Code) {
  constexpr unsigned Threads = 4, Rounds = 2000;
  std::vector<const MCDisassembler *> Used(Threads);
  std::vector<unsigned> Wrong(Threads);
  std::atomic<unsigned> Ready{0};
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      // Every thread has started before any decodes.
      ++Ready;
      while (Ready < Threads)
        std::this_thread::yield();
      Used[T] = &D.disassembler();
      for (unsigned R = 0; R < Rounds; ++R)
        Wrong[T] += countWrong(D, Code);
      EXPECT_EQ(&D.disassembler(), Used[T]) << "thread " << T;
    });
  for (std::thread &T : Pool)
    T.join();
  std::set<const MCDisassembler *> Distinct(Used.begin(), Used.end());
  EXPECT_EQ(Distinct.size(), Threads)
      << "threads decoded with the same MCDisassembler";
  for (unsigned T = 0; T < Threads; ++T)
    EXPECT_EQ(Wrong[T], 0u) << "thread " << T;
}

TEST_F(InstructionDecoderTest, ThreadsDecodeWithDisassemblersOfTheirOwn) {
  std::unique_ptr<InstructionDecoder> X86 = decoderFor(*X86Object);
  ASSERT_TRUE(X86);
  decodeOnThreads(*X86, X86Code);
  std::unique_ptr<InstructionDecoder> AArch64 = decoderFor(*AArch64Object);
  ASSERT_TRUE(AArch64);
  decodeOnThreads(*AArch64, AArch64Code);
}

TEST_F(InstructionDecoderTest, OneThreadSwitchesBetweenDecoders) {
  std::unique_ptr<InstructionDecoder> X86 = decoderFor(*X86Object);
  std::unique_ptr<InstructionDecoder> AArch64 = decoderFor(*AArch64Object);
  ASSERT_TRUE(X86 && AArch64);
  std::thread Worker([&] {
    for (unsigned R = 0; R < 100; ++R) {
      EXPECT_EQ(countWrong(*X86, X86Code), 0u) << "round " << R;
      EXPECT_EQ(countWrong(*AArch64, AArch64Code), 0u) << "round " << R;
    }
    EXPECT_NE(&X86->disassembler(), &AArch64->disassembler());
  });
  Worker.join();
}

TEST_F(InstructionDecoderTest, ADecoderMadeWhereAnEndedOneWasDecodesItsOwn) {
  // The second decoder may reuse the first's memory; the thread's cache
  // must not hand it the first one's (freed) disassembler.
  for (unsigned R = 0; R < 20; ++R) {
    std::unique_ptr<InstructionDecoder> D =
        decoderFor(R % 2 ? *AArch64Object : *X86Object);
    ASSERT_TRUE(D);
    EXPECT_EQ(countWrong(*D, R % 2 ? AArch64Code : X86Code), 0u)
        << "round " << R;
  }
}

} // namespace

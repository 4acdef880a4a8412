//===- OutputFileTest.cpp - outputs that appear whole or not at all -------===//
//
// OutputFile: committed, the target holds the whole text; given up, the
// target is as it was and no temporary file is left; a device is written
// in place rather than replaced.
//
//===----------------------------------------------------------------------===//

#include "bbmap/Support/OutputFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace llvm;

namespace bbmap {
namespace {

class OutputFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("output-file", Dir));
    Target = (Dir + "/out").str();
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  std::string contents() const {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Target);
    return B ? (*B)->getBuffer().str() : "<none>";
  }
  unsigned filesInDir() const {
    std::error_code EC;
    unsigned N = 0;
    for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
         I.increment(EC))
      ++N;
    return N;
  }
  void writeTarget(StringRef Text) {
    std::error_code EC;
    raw_fd_ostream OS(Target, EC);
    OS << Text;
  }

  SmallString<128> Dir;
  std::string Target;
};

TEST_F(OutputFileTest, CommitReplacesTheTarget) {
  writeTarget("old");
  Expected<std::unique_ptr<OutputFile>> F = OutputFile::create(Target);
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  (*F)->os() << "new text";
  EXPECT_EQ(contents(), "old"); // Not before the commit.
  ASSERT_FALSE(bool((*F)->commit()));
  EXPECT_EQ(contents(), "new text");
  EXPECT_EQ(filesInDir(), 1u);
}

TEST_F(OutputFileTest, GivenUpLeavesTheTargetAlone) {
  writeTarget("old");
  {
    Expected<std::unique_ptr<OutputFile>> F = OutputFile::create(Target, 64);
    ASSERT_TRUE(bool(F)) << toString(F.takeError());
    for (int I = 0; I < 1000; ++I) // Past the buffer: bytes on disk.
      (*F)->os() << "partial ";
    EXPECT_EQ(filesInDir(), 2u);
  }
  EXPECT_EQ(contents(), "old");
  EXPECT_EQ(filesInDir(), 1u);
}

TEST_F(OutputFileTest, NoTargetUntilCommitted) {
  {
    Expected<std::unique_ptr<OutputFile>> F = OutputFile::create(Target);
    ASSERT_TRUE(bool(F));
    (*F)->os() << "never";
  }
  EXPECT_FALSE(sys::fs::exists(Target));
  EXPECT_EQ(filesInDir(), 0u);
}

TEST_F(OutputFileTest, ErrorsNameTheTarget) {
  std::string Missing = (Dir + "/no/such/dir/out").str();
  Expected<std::unique_ptr<OutputFile>> F = OutputFile::create(Missing);
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(toString(F.takeError()).rfind("'" + Missing + "': ", 0), 0u);

  ASSERT_FALSE(sys::fs::create_directory(Target)); // Not a regular file,
  F = OutputFile::create(Target);                  // so written in place.
  ASSERT_FALSE(bool(F));
  std::string Message = toString(F.takeError());
  EXPECT_EQ(Message.rfind("'" + Target + "': ", 0), 0u) << Message;
  EXPECT_EQ(filesInDir(), 1u);
}

TEST_F(OutputFileTest, DevicesAreWrittenInPlace) {
  Expected<std::unique_ptr<OutputFile>> F = OutputFile::create("/dev/null");
  ASSERT_TRUE(bool(F)) << toString(F.takeError());
  (*F)->os() << "discarded";
  ASSERT_FALSE(bool((*F)->commit()));
  sys::fs::file_status Status;
  ASSERT_FALSE(sys::fs::status("/dev/null", Status));
  EXPECT_EQ(Status.type(), sys::fs::file_type::character_file);
}

} // namespace
} // namespace bbmap

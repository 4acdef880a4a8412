# lit.cfg.py - bbmap's unit tests, run once per LLVM major: every program
# named *Tests under build/llvm-N/unittests (one per folder of unittests/),
# each GoogleTest case a lit test, e.g.
#   bbmap-unit-llvm-22 :: Support/./SupportTests/ByteReaderTest/FixedTruncated
import os

import lit.formats

config.name = 'bbmap-unit-llvm-%d' % config.llvm_major
config.test_format = lit.formats.GoogleTest('.', 'Tests')
config.test_source_root = os.path.join(config.bbmap_obj_root, 'unittests')
config.test_exec_root = config.test_source_root

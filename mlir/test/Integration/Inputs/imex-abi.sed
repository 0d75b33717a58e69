# Rewrites this lowering's gpu* calls into the forms IMEX's convert-gpux-to-llvm
# emits (docs/gpux.md, "IMEX's lowering and this runtime"): gpuMemAlloc takes
# its isShared flag as i32 and an alignment of 64; gpuLaunchKernel takes its
# shared-memory size as i32.
s/llvm\.func @gpuMemAlloc\(!llvm\.ptr, i64, i64, i1\)/llvm.func @gpuMemAlloc(!llvm.ptr, i64, i64, i32)/
s/^( *)%([A-Za-z0-9_]+) = llvm\.call @gpuMemAlloc\((%[A-Za-z0-9_]+), (%[A-Za-z0-9_]+), %[A-Za-z0-9_]+, (%[A-Za-z0-9_]+)\) : \(!llvm\.ptr, i64, i64, i1\)/\1%imex_shared_\2 = llvm.zext \5 : i1 to i32\n\1%imex_align_\2 = llvm.mlir.constant(64 : i64) : i64\n\1%\2 = llvm.call @gpuMemAlloc(\3, \4, %imex_align_\2, %imex_shared_\2) : (!llvm.ptr, i64, i64, i32)/
s/llvm\.func @gpuLaunchKernel\(!llvm\.ptr, !llvm\.ptr, i64, i64, i64, i64, i64, i64, i64, !llvm\.ptr, !llvm\.ptr\)/llvm.func @gpuLaunchKernel(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr)/
s/^( *)%([A-Za-z0-9_]+) = llvm\.call @gpuLaunchKernel\(((%[A-Za-z0-9_]+, ){8})(%[A-Za-z0-9_]+), (%[A-Za-z0-9_]+, %[A-Za-z0-9_]+)\) : \(!llvm\.ptr, !llvm\.ptr, i64, i64, i64, i64, i64, i64, i64,/\1%imex_shared_bytes_\2 = llvm.trunc \5 : i64 to i32\n\1%\2 = llvm.call @gpuLaunchKernel(\3%imex_shared_bytes_\2, \6) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i32,/

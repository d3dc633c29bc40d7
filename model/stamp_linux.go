package model

import (
	"io/fs"
	"syscall"
)

// stampOf identifies a regular file's content as the kernel sees it: a
// rewrite changes the size, the modification or change time, or (through a
// rename) the inode.
func stampOf(info fs.FileInfo) fileStamp {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}
	}
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: info.Size(),
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

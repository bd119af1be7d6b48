"""Chunk store on local disk: content addressing and reference counting."""

import hashlib
import json
import os
from pathlib import Path
from typing import Dict, Iterable, List

CHUNKS_DIR = Path("/srv/shard/chunks")
INDEX_FILE = Path("/srv/shard/index.json")


class StoreError(Exception):
    """The chunk store is missing or inconsistent."""


def chunk_id(data: bytes) -> str:
    """Content address of one chunk."""
    return hashlib.blake2b(data, digest_size=20).hexdigest()


class ChunkStore:
    """Writes chunks once and tracks which archives refer to them."""

    def __init__(self, root: Path = CHUNKS_DIR, index: Path = INDEX_FILE):
        self.root = root
        self.index = index

    def _load(self) -> Dict[str, List[str]]:
        if not self.index.exists():
            return {}
        try:
            return json.loads(self.index.read_text())
        except json.JSONDecodeError as e:
            raise StoreError(f"index is corrupt: {e}") from e

    def _save(self, refs: Dict[str, List[str]]) -> None:
        tmp = self.index.with_suffix(".tmp")
        tmp.write_text(json.dumps(refs, sort_keys=True))
        os.replace(tmp, self.index)

    def put(self, archive: str, chunks: Iterable[bytes]) -> List[str]:
        """Store the chunks of one archive; return their ids in order."""
        refs = self._load()
        ids = []
        for data in chunks:
            cid = chunk_id(data)
            path = self.root / cid[:2] / cid
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            refs.setdefault(cid, [])
            if archive not in refs[cid]:
                refs[cid].append(archive)
            ids.append(cid)
        self._save(refs)
        return ids

    def unreferenced(self) -> List[str]:
        """Chunk ids on disk that no archive refers to."""
        refs = self._load()
        on_disk = sorted(p.name for p in self.root.glob("*/*"))
        return [cid for cid in on_disk if not refs.get(cid)]

    def drop(self, ids: Iterable[str]) -> int:
        dropped = 0
        for cid in ids:
            path = self.root / cid[:2] / cid
            if path.exists():
                path.unlink()
                dropped += 1
        return dropped

//! Raw answers as kept: zstd frames, unpacked whole.

/// A raw answer as kept (one or more zstd frames, see [`crate::pack_answer`]) decompressed
/// into one buffer of its exact size, read from the frames' headers (no buffer grown and
/// copied as it fills). Frames without a size, or sizes past what the frames could hold (or
/// past 1 GiB), are decompressed as a stream.
///
/// # Errors
/// The frames do not decompress (corrupt or cut).
pub fn unpack_raw(z: &[u8]) -> std::io::Result<Vec<u8>> {
    // A zstd block expands at most to 128 KiB from 4 bytes (an RLE block): past that, a
    // header lies. No answer comes near 1 GiB (a 10,000-company lookup is tens of MB): past
    // that, the buffer is not taken on the header's word either.
    const MOST_PER_BYTE: u64 = 1 << 15;
    const MOST: u64 = 1 << 30;
    let mut total = 0u64;
    let mut rest = z;
    while !rest.is_empty() {
        let (Ok(len), Ok(Some(size))) = (
            zstd::zstd_safe::find_frame_compressed_size(rest),
            zstd::zstd_safe::get_frame_content_size(rest),
        ) else {
            return zstd::decode_all(z);
        };
        total += size;
        rest = &rest[len.min(rest.len())..];
    }
    if total > (z.len() as u64).saturating_mul(MOST_PER_BYTE).min(MOST) {
        return zstd::decode_all(z);
    }
    thread_local! {
        /// One decompression context a thread, reused (a run reads an answer a page).
        static UNPACKER: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    UNPACKER.with(|u| {
        let mut u = u.borrow_mut();
        let unpacker = match u.as_mut() {
            Some(d) => d,
            None => u.insert(zstd::bulk::Decompressor::new()?),
        };
        unpacker.decompress(z, total as usize)
    })
}

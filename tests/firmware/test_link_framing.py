"""The link's framing: COBS, the CRC-32 and the stream decoder that skips damage."""

from __future__ import annotations

import zlib
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from hardware.seatnode_firmware import firmware

LINK = firmware().link


@given(st.binary(max_size=600))
def test_cobs_round_trips_any_bytes(data: bytes) -> None:
    assert LINK.cobs_decode(LINK.cobs_encode(data)) == data


@given(st.binary(max_size=600))
def test_cobs_output_has_no_zero_byte(data: bytes) -> None:
    assert 0 not in LINK.cobs_encode(data)


def test_cobs_known_vector(fw: SimpleNamespace) -> None:
    assert fw.link.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"


def test_cobs_rejects_a_block_running_off_the_end(fw: SimpleNamespace) -> None:
    try:
        fw.link.cobs_decode(b"\x05\x01\x02")
    except ValueError as exc:
        assert "COBS" in str(exc)
    else:
        raise AssertionError("a truncated COBS block decoded")


def test_checksum_is_zlib_crc32(fw: SimpleNamespace) -> None:
    assert fw.link.checksum(b"123456789") == zlib.crc32(b"123456789") == 0xCBF43926


def test_bitwise_crc_matches_for_ports_without_binascii(fw: SimpleNamespace) -> None:
    data = bytes(range(256))
    assert fw.link._crc32_bitwise(data) == zlib.crc32(data)


def test_frame_round_trips_type_seq_and_payload(fw: SimpleNamespace) -> None:
    wire = fw.link.encode_frame(fw.link.T_BUTTON, 0x1234, b"\x00\x01\x00")
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert fw.link.decode_body(wire[:-1]) == (fw.link.T_BUTTON, 0x1234, b"\x00\x01\x00")


def test_frame_with_a_flipped_bit_is_rejected(fw: SimpleNamespace) -> None:
    body = bytearray(fw.link.cobs_decode(fw.link.encode_frame(fw.link.T_TAG, 7, b"abcd")[:-1]))
    body[4] ^= 0x10
    decoder = fw.link.Decoder()
    assert decoder.feed(fw.link.cobs_encode(bytes(body)) + b"\x00") == []
    assert decoder.bad == 1


def test_payload_longer_than_a_frame_is_refused(fw: SimpleNamespace) -> None:
    try:
        fw.link.encode_frame(fw.link.T_TAG, 0, bytes(fw.link.MAX_BODY))
    except ValueError as exc:
        assert "too long" in str(exc)
    else:
        raise AssertionError("an oversized payload was framed")


def test_decoder_finds_frames_between_garbage(fw: SimpleNamespace) -> None:
    one = fw.link.encode_frame(fw.link.T_BUTTON, 1, b"\x01\x01\x00\x00\x00\x05")
    two = fw.link.encode_frame(fw.link.T_SET_LED, 2, b"\x00\x02")
    decoder = fw.link.Decoder()
    frames = decoder.feed(b"\x13\x37\x00" + one + b"\xff\xfe\x00\x00" + two)
    assert [frame[:2] for frame in frames] == [(fw.link.T_BUTTON, 1), (fw.link.T_SET_LED, 2)]
    assert decoder.bad == 2


def test_decoder_reassembles_a_frame_fed_byte_by_byte(fw: SimpleNamespace) -> None:
    wire = fw.link.encode_frame(fw.link.T_ACK, 0, b"\x00\x09")
    decoder = fw.link.Decoder()
    frames = [frame for byte in wire for frame in decoder.feed(bytes((byte,)))]
    assert frames == [(fw.link.T_ACK, 0, b"\x00\x09")]


def test_decoder_drops_an_endless_run_and_reads_the_next_frame(fw: SimpleNamespace) -> None:
    wire = fw.link.encode_frame(fw.link.T_HEARTBEAT, 0, b"")
    decoder = fw.link.Decoder()
    assert decoder.feed(b"\x01" * 10_000 + b"\x00" + wire) == [(fw.link.T_HEARTBEAT, 0, b"")]
    assert decoder.bad == 1 and len(decoder.buffer) == 0


def test_ticks_diff_wraps_like_micropython(fw: SimpleNamespace) -> None:
    assert fw.link.ticks_diff(5, fw.link.TICKS_MASK - 4) == 10
    assert fw.link.ticks_diff(fw.link.TICKS_MASK - 4, 5) == -10


@given(st.lists(st.binary(max_size=80), max_size=20))
def test_decoder_survives_any_bytes_and_only_returns_checked_frames(chunks: list[bytes]) -> None:
    decoder = LINK.Decoder()
    frames = [frame for chunk in chunks for frame in decoder.feed(chunk)]
    assert all(LINK.decode_body(LINK.encode_frame(*frame)[:-1]) == frame for frame in frames)


@given(st.lists(st.binary(max_size=80), min_size=1, max_size=20))
def test_link_fed_any_bytes_only_ever_writes_whole_frames(chunks: list[bytes]) -> None:
    sent: list[bytes] = []
    link = LINK.Link(sent.append, lambda: 0, 0x0101, LINK.ROLE_NODE)
    for chunk in chunks:
        link.feed(chunk)
        link.poll()
    assert sent and all(len(LINK.Decoder().feed(frame)) == 1 for frame in sent)

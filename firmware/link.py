"""Seat-node link protocol: COBS frames with a CRC-32, sequence numbers, acks, resends, heartbeats.

Runs on MicroPython (the Pico) and on CPython (the Pi side and the host tests), so it keeps to the
subset both share: no dataclasses, no typing, no threads, time passed in as milliseconds.

A frame on the wire is ``COBS(type u8 | seq u16 | payload | crc32 u32) 0x00`` (big-endian fields,
the CRC over type, seq and payload; bit 7 of the type says who sent it, 1 for the node). Reliable messages (types 0x10 and up) are sent one at a
time, stop-and-wait, and resent until the peer acknowledges their sequence number; the receiver
delivers a reliable frame only when its sequence number is the one it expects next, so resends
and replays are never delivered twice. See ``firmware/README.md`` for the message table.
"""

import struct

try:
    from micropython import const
except ImportError:

    def const(value):
        """CPython stand-in for MicroPython's compile-time constant marker."""
        return value


try:
    from binascii import crc32
except ImportError:
    crc32 = None

VERSION = const(3)
OLDEST_NODE = const(2)  # the oldest node whose every message a Pi of this version reads

T_HELLO = const(0x01)
T_ACK = const(0x02)
T_HEARTBEAT = const(0x03)
T_BUTTON = const(0x10)
T_TAG = const(0x11)
T_READER = const(0x12)
T_NOTICE = const(0x13)
T_SET_LED = const(0x20)
FIRST_RELIABLE = const(0x10)

HELLO_REPLY_WANTED = const(0x01)

ROLE_PI = const(0x00)
ROLE_NODE = const(0x80)
KIND_MASK = const(0x7F)

BUTTON_PRESS = const(1)
BUTTON_RELEASE = const(2)
BUTTON_LONG = const(3)

TAG_ARRIVE = const(1)
TAG_LEAVE = const(2)

READER_OK = const(0)
READER_FAILED = const(1)       # the RC522 does not answer on the node's SPI bus
READER_OVERHEATED = const(2)   # the RC522 overheated and switched its antenna off (TempErr)
READER_GARBLING = const(3)     # it works, but its scans all come garbled: a warning, not a failure
NOTICE_MAX = const(48)

LED_OFF = const(0)
LED_ON = const(1)
LED_BLINK = const(2)

MAX_BODY = const(64)
MAX_ENCODED = const(MAX_BODY + MAX_BODY // 254 + 2)
HEADER = const(3)
CHECK = const(4)
SEQ_MASK = const(0xFFFF)
TICKS_MASK = const(0x3FFFFFFF)
TICKS_HALF = const(0x20000000)


def ticks_diff(end, start):
    """``end - start`` in milliseconds on the wrapping 30-bit tick counter (as ``time.ticks_diff``)."""
    return ((end - start + TICKS_HALF) & TICKS_MASK) - TICKS_HALF


def _crc32_bitwise(data, crc=0):
    """CRC-32 (IEEE) for ports built without ``binascii.crc32``."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def checksum(data):
    """The CRC-32 (IEEE 802.3, as zlib) of ``data``."""
    if crc32 is None:
        return _crc32_bitwise(data)
    return crc32(data) & 0xFFFFFFFF


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` with every zero byte removed (no delimiter)."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if byte:
            out.append(byte)
            code += 1
        if not byte or code == 0xFF:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises ``ValueError`` on a zero byte or a block running off the end."""
    out = bytearray()
    i = 0
    end = len(data)
    while i < end:
        code = data[i]
        if code == 0 or i + code > end:
            raise ValueError("bad COBS block")
        out.extend(data[i + 1 : i + code])
        i += code
        if code < 0xFF and i < end:
            out.append(0)
    return bytes(out)


def encode_frame(kind, seq, payload=b""):
    """The bytes on the wire for one message, delimiter included."""
    if HEADER + len(payload) + CHECK > MAX_BODY:
        raise ValueError("payload too long")
    body = struct.pack(">BH", kind, seq & SEQ_MASK) + bytes(payload)
    return cobs_encode(body + struct.pack(">I", checksum(body))) + b"\x00"


def decode_body(encoded):
    """``(type, seq, payload)`` from one frame without its delimiter; ``ValueError`` if damaged."""
    body = cobs_decode(encoded)
    if len(body) < HEADER + CHECK:
        raise ValueError("frame too short")
    (crc,) = struct.unpack(">I", body[-CHECK:])
    if checksum(body[:-CHECK]) != crc:
        raise ValueError("bad CRC")
    kind, seq = struct.unpack(">BH", body[:HEADER])
    return kind, seq, body[HEADER:-CHECK]


class Decoder:
    """Splits a byte stream on zero bytes into checked frames, skipping anything damaged."""

    def __init__(self):
        self.buffer = bytearray()
        self.overflow = False
        self.bad = 0

    def feed(self, data):
        """Every intact ``(type, seq, payload)`` completed by ``data``, in order."""
        frames = []
        for byte in data:
            if byte:
                self._keep(byte)
            else:
                self._close(frames)
        return frames

    def _keep(self, byte):
        if len(self.buffer) >= MAX_ENCODED:
            self.overflow = True
            self.buffer = bytearray()
        if not self.overflow:
            self.buffer.append(byte)

    def _close(self, frames):
        encoded = bytes(self.buffer)
        damaged = self.overflow
        self.buffer = bytearray()
        self.overflow = False
        if damaged:
            self.bad += 1
        elif encoded:
            try:
                frames.append(decode_body(encoded))
            except ValueError:
                self.bad += 1


class Link:
    """One end of the link: queues reliable messages, acks, resends, heartbeats, hello.

    ``write(bytes)`` sends bytes to the peer, ``now_ms()`` reads a millisecond tick counter.
    ``session`` is a 16-bit number new at every boot (or driver start); a hello carrying a new
    session tells the peer to restart its sequence numbering from the hello's ``first``.
    ``role`` is ``ROLE_NODE`` or ``ROLE_PI``, sent as bit 7 of every frame's type byte: a frame
    carrying this end's own role (an echo, a port looped back on itself) is dropped, so no
    frame can ever be taken for one from the peer.
    """

    def __init__(self, write, now_ms, session, role, resend_ms=200, heartbeat_ms=1000,
                 peer_timeout_ms=3000, queue_max=64):
        self.write = write
        self.role = role
        self.now_ms = now_ms
        self.session = session & SEQ_MASK
        self.resend_ms = resend_ms
        self.heartbeat_ms = heartbeat_ms
        self.peer_timeout_ms = peer_timeout_ms
        self.queue_max = queue_max
        self.decoder = Decoder()
        self.queue = []
        self.next_seq = 0
        self.head_sent = None
        self.expected = None
        self.peer_session = None
        self.peer_version = None
        self.version = VERSION if role == ROLE_NODE else None  # what its hellos say
        self.peer_clock = None
        now = now_ms()
        self.last_rx = None
        self.last_tx = now
        self.last_hello = None
        self.dropped = 0
        self.resends = 0
        self.echoes = 0

    def send(self, kind, payload):
        """Queue a reliable message; False (and counted in ``dropped``) when the queue is full."""
        if len(self.queue) >= self.queue_max:
            self.dropped += 1
            return False
        self.queue.append((self.next_seq, kind, bytes(payload)))
        self.next_seq = (self.next_seq + 1) & SEQ_MASK
        if len(self.queue) == 1:
            self._send_head()
        return True

    def feed(self, data):
        """Take received bytes; the reliable messages now delivered, as ``(type, payload)``."""
        return [(kind, payload) for kind, _, payload in self.feed_numbered(data)]

    def feed_numbered(self, data):
        """As :meth:`feed`, as ``(type, seq, payload)``: with :attr:`peer_session`, ``seq``
        names a message for good, so a receiver that restarted can tell one it already has."""
        delivered = []
        for kind, seq, payload in self.decoder.feed(data):
            if kind & ROLE_NODE == self.role:
                self.echoes += 1
                continue
            self.last_rx = self.now_ms()
            self._handle(kind & KIND_MASK, seq, payload, delivered)
        return delivered

    def poll(self):
        """Resend an unacknowledged message, say hello or send a heartbeat when one is due."""
        now = self.now_ms()
        if self.expected is None:
            if self.last_hello is None or ticks_diff(now, self.last_hello) >= self.heartbeat_ms:
                self.hello(True)
        elif self.queue and ticks_diff(now, self.head_sent) >= self.resend_ms:
            self.resends += 1
            self._send_head()
        elif ticks_diff(now, self.last_tx) >= self.heartbeat_ms:
            self._transmit(T_HEARTBEAT, 0, struct.pack(">I", now & 0xFFFFFFFF))

    def alive(self):
        """True while the peer said hello and sent a good frame within ``peer_timeout_ms``."""
        if self.expected is None or self.last_rx is None:
            return False
        return ticks_diff(self.now_ms(), self.last_rx) < self.peer_timeout_ms

    def pending(self):
        """How many reliable messages wait for their acknowledgement."""
        return len(self.queue)

    def hello(self, reply_wanted):
        """Send a hello: version, flags, session and the first sequence number still unacked.

        A node takes only a hello of its own version, and a Pi does not know which that is
        until it hears the node's hello; a node already talking to the Pi's driver before it
        restarted sends none. So a Pi that has not heard its node says hello once in every
        version it reads, and from then on in the node's.
        """
        first = self.queue[0][0] if self.queue else self.next_seq
        flags = HELLO_REPLY_WANTED if reply_wanted else 0
        self.last_hello = self.now_ms()
        versions = (range(VERSION, OLDEST_NODE - 1, -1) if self.version is None
                    else (self.version,))
        for version in versions:
            payload = struct.pack(">BBHHI", version, flags, self.session, first,
                                  self.last_hello & 0xFFFFFFFF)
            self._transmit(T_HELLO, 0, payload)

    def speaks(self, version):
        """True when this end talks with a peer whose hello says ``version``: a node with a Pi
        of its own version only (older Pis cannot read its messages; a newer Pi talks to it in
        its version), a Pi with a node from ``OLDEST_NODE`` to its own version (each version's
        messages are a subset of the next's: firmware/README.md, "Versions")."""
        if self.role == ROLE_NODE:
            return version == self.version
        return OLDEST_NODE <= version <= VERSION

    def _handle(self, kind, seq, payload, delivered):
        if kind == T_HEARTBEAT and len(payload) == 4:
            self.peer_clock = (struct.unpack(">I", payload)[0], self.now_ms())
        elif kind == T_HELLO and len(payload) >= 10:
            self.peer_clock = (struct.unpack(">I", payload[6:10])[0], self.now_ms())
        if kind == T_HELLO:
            self._on_hello(payload)
        elif kind == T_ACK:
            self._on_ack(payload)
        elif kind >= FIRST_RELIABLE:
            self._on_reliable(kind, seq, payload, delivered)

    def _on_hello(self, payload):
        if len(payload) < 6:
            return
        version, flags, session, first = struct.unpack(">BBHH", payload[:6])
        self.peer_version = version
        if not self.speaks(version):
            return
        self.version = version
        if flags & HELLO_REPLY_WANTED:
            self.hello(False)
        if session != self.peer_session or self.expected is None:
            self.peer_session = session
            self.expected = first
        if self.queue:
            self._send_head()

    def _on_ack(self, payload):
        if len(payload) != 2 or not self.queue:
            return
        (seq,) = struct.unpack(">H", payload)
        if seq == self.queue[0][0]:
            self.queue.pop(0)
            if self.queue:
                self._send_head()

    def _on_reliable(self, kind, seq, payload, delivered):
        if self.expected is None:
            if self.last_hello is None or ticks_diff(self.now_ms(), self.last_hello) >= self.resend_ms:
                self.hello(True)
            return
        if seq == self.expected:
            delivered.append((kind, seq, payload))
            self.expected = (seq + 1) & SEQ_MASK
            self._ack(seq)
        elif seq == (self.expected - 1) & SEQ_MASK:
            self._ack(seq)

    def _ack(self, seq):
        self._transmit(T_ACK, 0, struct.pack(">H", seq))

    def _send_head(self):
        seq, kind, payload = self.queue[0]
        self.head_sent = self.now_ms()
        self._transmit(kind, seq, payload)

    def _transmit(self, kind, seq, payload):
        self.last_tx = self.now_ms()
        self.write(encode_frame(kind | self.role, seq, payload))

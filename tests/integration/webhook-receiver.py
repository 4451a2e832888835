#!/usr/bin/python3
# A webhook receiver for tests/integration/alerts.sh: listens on 127.0.0.1 on
# a port the kernel picks (written to PORT-FILE once it listens, so that the
# test needs no guess at a free port), and appends the body of every POST to
# BODIES-FILE as one line (Alertmanager's webhook JSON is one line already).
# Only what python3-minimal has (socket), no http.server: tools/install-deps.sh
# installs no more of Python.
#
#   webhook-receiver.py PORT-FILE BODIES-FILE
import os
import socket
import sys


def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        body += chunk
    return body[:length]


def main():
    port_file, bodies_file = sys.argv[1], sys.argv[2]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    # Written whole, then renamed: the test never reads half a port number.
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % server.getsockname()[1])
    os.rename(port_file + ".tmp", port_file)
    out = os.open(bodies_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    while True:
        conn, _ = server.accept()
        with conn:
            conn.settimeout(10)
            try:
                body = read_request(conn)
            except (OSError, ValueError):
                continue
            if body is None:
                continue
            # One write per body: a reader polling the file sees whole lines.
            os.write(out, body.rstrip(b"\n") + b"\n")
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


main()

/*
 * What the network server (netd) and the benchmark (netbench) agree on:
 * the ports, and the bulk transfer's protocol.  docs/network.md.
 *
 *   NET_PORT_ECHO    UDP and TCP: every byte (datagram) sent back
 *   NET_PORT_SINK    TCP: the bulk transfer: a 4-byte length (network
 *                    order), then that many bytes of net_pattern(); the
 *                    server checks each, then answers with a 4-byte count
 *                    (network order) of the bytes that were wrong or
 *                    missing, and closes
 *   NET_PORT_ACCEPT  TCP: every connection accepted and closed at once
 *                    (connection setup and teardown)
 *   NET_PORT_HOLD    UDP, with `netd -hold N`: N ports from here up whose
 *                    datagrams nobody reads, so that their queues hold
 *                    packet buffers (a flood then empties the pool: the
 *                    integration test's way to make the NIC drop frames
 *                    for want of buffers)
 */
#ifndef NETBENCH_H
#define NETBENCH_H

#include <stdint.h>

#define NET_PORT_ECHO    7          /* as the Internet's echo service */
#define NET_PORT_SINK    9          /* ... and discard                */
#define NET_PORT_ACCEPT 10
#define NET_PORT_HOLD 1000

/* Byte i of a bulk transfer: not periodic within NET_PATTERN_BYTES, so a
 * lost, repeated or reordered segment shows; repeated after it, so that a
 * sender can make its data once, before it times, in bounded memory (a
 * transfer of 100,000 blocks of 8 KB once asked sbrk for 800 MB). */
#define NET_PATTERN_BYTES (1u << 20)

static inline unsigned char net_pattern(uint32_t i)
{
    i &= NET_PATTERN_BYTES - 1;
    return (unsigned char)(i * 7 + (i >> 8) * 13 + (i >> 16));
}

#endif

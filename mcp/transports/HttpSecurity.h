#pragma once

#include <QByteArray>
#include <QStringList>

// The checks the HTTP transport makes before it looks at a request's content: DNS rebinding
// (Host), cross-site requests from browsers (Origin), the bearer token, and what the client
// accepts. Pure functions, so each rule is tested on its own.
namespace HttpSecurity {

// Host must name this server: 127.0.0.1, localhost or [::1] (plus extraHosts, e.g. the
// --listen address) with the port we listen on. A port-less Host means port 80. With
// anyIpLiteral (listening on every address, --listen 0.0.0.0) any IP address is accepted too,
// but still no DNS name: a name is what a rebinding attack controls.
bool isAllowedHost(const QByteArray &host, quint16 port, const QStringList &extraHosts = {}, bool anyIpLiteral = false);
// Origin, when a browser sends one, must be http(s) on localhost, 127.0.0.1 or [::1], any port.
bool isAllowedOrigin(const QByteArray &origin);
// "Bearer TOKEN", compared in time that does not depend on where the bytes differ.
bool isAuthorized(const QByteArray &authorizationHeader, const QByteArray &token);
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

struct Acceptance
{
    bool json = false;
    bool eventStream = false;
};
// Reads an Accept header (media ranges, wildcards, q=0 means "not this"); an absent or empty
// header accepts everything.
Acceptance parseAccept(const QByteArray &accept);

} // namespace HttpSecurity

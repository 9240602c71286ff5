package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// net/http answers some requests itself, before any handler, by writing a
// plain-text response on the raw connection: a head over MaxHeaderBytes
// (431), an unsupported Transfer-Encoding (501), a malformed request (400),
// an HTTP version it does not serve (505). A head not received within
// ReadHeaderTimeout gets no answer at all: the connection is closed.
//
// The server wraps each accepted connection (guardConn) to give these the
// framework's JSON {message} body and headers:
//   - a write made while no handler ran for the current request, in exactly
//     the layout net/http uses for those answers, is rewritten as JSON;
//   - a read that times out after some bytes of a request head arrived (and
//     before net/http parsed it) writes 408 {"message":"request timeout"}
//     before net/http closes the connection.
//
// Which request a connection is on comes from http.Server's ConnState hook
// (StateNew and StateIdle start one; StateActive means its head was read)
// and from the handler, which marks the connection it runs on. TLS
// connections are not wrapped (net/http needs the *tls.Conn itself).

type guardListener struct{ net.Listener }

func (l guardListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	if _, ok := c.(*tls.Conn); ok {
		return c, nil
	}
	return &guardConn{Conn: c}, nil
}

// Phases of the request a guarded connection is on.
const (
	awaitingHead int32 = iota // no byte of the next request read yet
	readingHead               // some bytes read, the head not parsed yet
	handling                  // head parsed (net/http's StateActive)
)

type guardConn struct {
	net.Conn
	phase   atomic.Int32
	handled atomic.Bool // a handler ran for the current request
}

type guardKey struct{}

// guardConnContext puts the guarded connection on the request context, so
// the handler can mark it.
func guardConnContext(ctx context.Context, c net.Conn) context.Context {
	if g, ok := c.(*guardConn); ok {
		return context.WithValue(ctx, guardKey{}, g)
	}
	return ctx
}

// guardConnState follows net/http's connection states.
func guardConnState(c net.Conn, state http.ConnState) {
	g, ok := c.(*guardConn)
	if !ok {
		return
	}
	switch state {
	case http.StateNew, http.StateIdle:
		g.handled.Store(false)
		g.phase.Store(awaitingHead)
	case http.StateActive:
		g.phase.Store(handling)
	}
}

func (c *guardConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.phase.CompareAndSwap(awaitingHead, readingHead)
	}
	if err != nil && c.phase.Load() == readingHead && !c.handled.Load() {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() && c.phase.CompareAndSwap(readingHead, handling) {
			_ = c.answer(http.StatusRequestTimeout, MsgRequestTimeout) // once: net/http may read again
		}
	}
	return n, err
}

func (c *guardConn) Write(p []byte) (int, error) {
	if !c.handled.Load() {
		if status, msg, ok := cannedAnswer(p); ok {
			if err := c.answer(status, msg); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// answer writes a framework error on the raw connection; the connection is
// closed after it.
func (c *guardConn) answer(status int, message string) error {
	body := messageBody(message)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 ")
	b.WriteString(strconv.Itoa(status))
	b.WriteByte(' ')
	b.WriteString(http.StatusText(status))
	b.WriteString("\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n")
	b.WriteString("Connection: close\r\nContent-Length: ")
	b.WriteString(strconv.Itoa(len(body)))
	b.WriteString("\r\nDate: ")
	b.WriteString(time.Now().UTC().Format(http.TimeFormat))
	b.WriteString("\r\n\r\n")
	b.Write(body)
	_ = c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := c.Conn.Write(b.Bytes())
	return err
}

// cannedHeaders follow the status line of net/http's own answers.
const cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// cannedAnswer recognises an answer net/http wrote itself
// ("HTTP/1.1 431 Request Header Fields Too Large" + cannedHeaders + text)
// and returns its status and the framework message for it: the text in
// lower case up to a colon, without the status code ("request header
// fields too large", "bad request: missing required Host header").
func cannedAnswer(p []byte) (int, string, bool) {
	s := string(p)
	rest, ok := strings.CutPrefix(s, "HTTP/1.1 ")
	if !ok || len(rest) < 4 || rest[3] != ' ' {
		return 0, "", false
	}
	status, err := strconv.Atoi(rest[:3])
	if err != nil || status < 400 || status > 599 {
		return 0, "", false
	}
	i := strings.Index(rest, cannedHeaders)
	if i < 0 || strings.Contains(rest[:i], "\r\n") {
		return 0, "", false
	}
	text := rest[i+len(cannedHeaders):]
	text = strings.TrimPrefix(text, rest[:4]) // "431 "
	if text == "" || strings.ContainsAny(text, "\r\n") {
		return 0, "", false
	}
	head, tail, _ := strings.Cut(text, ":")
	msg := strings.ToLower(head)
	if tail != "" {
		msg += ":" + tail
	}
	return status, msg, true
}

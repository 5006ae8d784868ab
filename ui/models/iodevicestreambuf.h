#pragma once

#include <QIODevice>

#include <array>
#include <streambuf>

namespace rd::ui {

/// A std::streambuf over an open QIODevice, so that the store's streaming readers and writers
/// (std::istream / std::ostream) can use a QFile or a QSaveFile. Buffered 64 KiB each way; a
/// device error makes the stream fail (badbit), which its user checks.
class IODeviceStreamBuf : public std::streambuf
{
public:
    explicit IODeviceStreamBuf(QIODevice &device) : m_device(device)
    {
        setp(m_out.data(), m_out.data() + m_out.size());
    }
    ~IODeviceStreamBuf() override { sync(); }
    IODeviceStreamBuf(const IODeviceStreamBuf &) = delete;
    IODeviceStreamBuf &operator=(const IODeviceStreamBuf &) = delete;

protected:
    int_type underflow() override
    {
        const qint64 n = m_device.read(m_in.data(), qint64(m_in.size()));
        if (n <= 0)
            return traits_type::eof();
        setg(m_in.data(), m_in.data(), m_in.data() + n);
        return traits_type::to_int_type(*gptr());
    }
    int_type overflow(int_type c) override
    {
        if (sync() != 0)
            return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override
    {
        const qint64 n = pptr() - pbase();
        if (n > 0 && m_device.write(pbase(), n) != n)
            return -1;
        setp(m_out.data(), m_out.data() + m_out.size());
        return 0;
    }

private:
    QIODevice &m_device;
    std::array<char, 1 << 16> m_in {};
    std::array<char, 1 << 16> m_out {};
};

} // namespace rd::ui

// European options priced by the Black-Scholes formula, one option per
// work-item: logarithms, square roots, exponentials and divisions, with the
// normal distribution's cumulative function by its polynomial approximation.
float normal_cdf(float d) {
    const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    const float poly =
        k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    const float tail = 0.3989422804f * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - tail : tail;
}

kernel void black_scholes(global const float *spot, global const float *strike,
                          global const float *years, global float *call, global float *put,
                          float rate, float volatility) {
    size_t i = get_global_id(0);
    float s = spot[i], x = strike[i], t = years[i];
    float root = sqrt(t);
    float d1 = (log(s / x) + (rate + 0.5f * volatility * volatility) * t) / (volatility * root);
    float d2 = d1 - volatility * root;
    float discounted = x * exp(-rate * t);
    call[i] = s * normal_cdf(d1) - discounted * normal_cdf(d2);
    put[i] = discounted * normal_cdf(-d2) - s * normal_cdf(-d1);
}

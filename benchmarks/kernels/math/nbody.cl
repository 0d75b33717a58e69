// One step of an all-pairs n-body simulation: each work-item sums the pull
// of every body on its own (softened inverse-square law, rsqrt), then moves.
kernel void nbody_step(global const float4 *position, global const float4 *velocity,
                       global float4 *newPosition, global float4 *newVelocity, uint n, float dt,
                       float softening) {
    size_t i = get_global_id(0);
    float4 p = position[i];
    float3 a = (float3)(0.0f);
    for (uint j = 0; j < n; ++j) {
        float4 q = position[j];
        float3 d = q.xyz - p.xyz;
        float distance2 = dot(d, d) + softening;
        float inverse = rsqrt(distance2);
        a += d * (q.w * inverse * inverse * inverse);
    }
    float4 v = velocity[i];
    v.xyz += a * dt;
    newVelocity[i] = v;
    newPosition[i] = (float4)(p.xyz + v.xyz * dt, p.w);
}
